import { afterEach, describe, expect, it, vi } from "vitest";
import { atDuty } from "./duty-cycle";

describe("atDuty", () => {
  afterEach(() => vi.useRealTimers());

  // The clock is the test's: a round "takes" 100 ms by moving it.
  const roundOf = (did: number) => async () => {
    vi.advanceTimersByTime(100);
    return did;
  };

  it("rests after a round that did something, so rounds take at most the duty of the time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    let done = false;
    const paced = atDuty(roundOf(5), 0.2).then((did) => {
      done = true;
      return did;
    });
    await vi.advanceTimersByTimeAsync(399);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await paced).toBe(5);
  });

  it("rests at least minPauseMs, and not at all after a round that found nothing", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    let done = false;
    void atDuty(roundOf(1), 0.5, 1_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(await atDuty(roundOf(0), 0.5, 1_000)).toBe(0);
  });
});
