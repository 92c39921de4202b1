import { describe, expect, it } from "vitest";
import { pickWinner, significanceOf, type VariantTally } from "./ab-test";

/** Every recipient accepted and tracked unless `tracked` says how many could show an open or a click. */
const tally = (index: number, recipients: number, unique_opened: number, unique_clicked = 0, tracked = recipients): VariantTally => ({
  index,
  recipients,
  open_tracked: tracked,
  click_tracked: tracked,
  unique_opened,
  unique_clicked,
});
const name = (index: number) => `Variant ${"ABCD"[index]}`;

describe("pickWinner", () => {
  it("picks the highest rate of the metric, not the highest count", () => {
    expect(pickWinner([tally(0, 100, 10), tally(1, 100, 12)], "unique_opens", 2)).toBe(1);
    // 10 of 99 beats 10 of 100.
    expect(pickWinner([tally(0, 100, 10), tally(1, 99, 10)], "unique_opens", 2)).toBe(1);
    expect(pickWinner([tally(0, 100, 50, 1), tally(1, 100, 10, 2)], "unique_clicks", 2)).toBe(1);
  });

  it("gives a tie to the earliest tied variant, and no evidence at all to the first", () => {
    expect(pickWinner([tally(0, 10, 1), tally(1, 10, 3), tally(2, 10, 3)], "unique_opens", 3)).toBe(1);
    expect(pickWinner([tally(0, 10, 0), tally(1, 10, 0)], "unique_opens", 2)).toBe(0);
    expect(pickWinner([], "unique_clicks", 4)).toBe(0);
    // A variant with no test recipients (a tiny audience) never wins on nothing.
    expect(pickWinner([tally(1, 1, 1)], "unique_opens", 2)).toBe(1);
  });

  it("compares rates of the emails that could show the metric, as the report does: refused or untracked ones are no evidence", () => {
    // A: 10 opens of the 50 accepted (20 %; half its 100 were refused); B: 15 of 100 accepted (15 %).
    expect(pickWinner([tally(0, 100, 10, 0, 50), tally(1, 100, 15)], "unique_opens", 2)).toBe(0);
    expect(significanceOf([tally(0, 100, 10, 0, 50), tally(1, 100, 15)], "unique_opens", name)!.note).toContain("Variant A's open rate (20.0 %)");
    expect(significanceOf([tally(0, 100, 0, 0, 0), tally(1, 100, 15)], "unique_opens", name)!.note).toBe(
      "The opens of a variant were not tracked: nothing to compare.",
    );
  });
});

describe("significanceOf", () => {
  it("calls a large difference on a large test significant, and a small test not yet", () => {
    const large = significanceOf([tally(0, 1000, 200), tally(1, 1000, 260)], "unique_opens", name)!;
    expect(large).toMatchObject({ leader: 1, runnerUp: 0, significant: true });
    expect(large.pValue!).toBeLessThan(0.01);
    expect(large.note).toContain("Variant B's open rate (26.0 %) against Variant A's (20.0 %): significant");

    const small = significanceOf([tally(0, 20, 4), tally(1, 20, 6)], "unique_opens", name)!;
    expect(small.significant).toBe(false);
    expect(small.pValue!).toBeGreaterThan(0.3);
    expect(small.note).toContain("not yet significant");
  });

  it("says when there is nothing to compare", () => {
    expect(significanceOf([tally(0, 10, 0)], "unique_opens", name)).toBeNull();
    expect(significanceOf([tally(0, 10, 0), tally(1, 10, 0)], "unique_clicks", name)).toMatchObject({
      pValue: null,
      note: "No clicks yet: nothing to compare.",
    });
  });
});
