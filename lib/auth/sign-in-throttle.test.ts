import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ACCOUNT_POLICY, accountKey, beginSignInAttempt } from "@/lib/auth/sign-in-throttle";

describe("beginSignInAttempt", () => {
  it("lets at most the free attempts of a burst through, even at an account it has never seen", async () => {
    // The first burst at an address is the race that matters: no row exists yet, so every statement
    // of the burst starts without one to lock, and all but one meet the row another just inserted.
    const allowedPerBurst: number[] = [];
    for (let burst = 0; burst < 20; burst++) {
      const keys = [{ key: accountKey(`burst-${randomUUID()}@example.test`), policy: ACCOUNT_POLICY }];
      const attempts = await Promise.all(Array.from({ length: 12 }, () => beginSignInAttempt(keys)));
      allowedPerBurst.push(attempts.filter((a) => a.allowed).length);
    }
    expect(Math.max(...allowedPerBurst)).toBeLessThanOrEqual(ACCOUNT_POLICY.free);
    // Each burst is refused beyond the free attempts, with a wait to tell.
    expect(Math.min(...allowedPerBurst)).toBe(ACCOUNT_POLICY.free);
  });

  it("refuses a blocked key with the time left, without counting the refused attempt", async () => {
    const keys = [{ key: accountKey(`blocked-${randomUUID()}@example.test`), policy: ACCOUNT_POLICY }];
    for (let i = 0; i < ACCOUNT_POLICY.free; i++) expect((await beginSignInAttempt(keys)).allowed).toBe(true);
    const refused = await beginSignInAttempt(keys);
    expect(refused).toMatchObject({ allowed: false, locked: false });
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });
});
