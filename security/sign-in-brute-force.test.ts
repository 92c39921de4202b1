import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PEER_HEADER } from "@/lib/api/client-address";
import { authOptions } from "@/lib/auth/options";
import { SIGN_IN_ERRORS, signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { db } from "@/lib/db";
import { createUser } from "@/lib/testing/accounts";

// Issue 8, item 5: 40 wrong passwords in 2 s went through with no delay. Sign-in goes through
// next-auth's credentials provider; its authorize is what the sign-in form's POST runs.
type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

// The connection's address, as the server records it for every request (lib/api/client-address.ts).
const fromIp = (ip: string, forwardedFor?: string) => ({ headers: { [PEER_HEADER]: ip, ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) } });
const randomIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`;

/** Runs one sign-in; answers "ok", "invalid", or the refusal's next-auth error. */
async function attempt(email: string, password: string, ip: string, forwardedFor?: string): Promise<string> {
  try {
    return (await authorize({ email, password }, fromIp(ip, forwardedFor))) ? "ok" : "invalid";
  } catch (error) {
    return (error as Error).message;
  }
}

/** Lets the clock run past a backoff or lock, as waiting would. */
const waitOutBlock = (key: string) => db.signInThrottle.updateMany({ where: { key }, data: { blocked_until: new Date(Date.now() - 1000) } });

/**
 * Checks that a key's last failure set a wait of at least `seconds`, then keeps the clock inside
 * that wait however slow this machine is (the next attempt may come seconds later under load).
 */
async function expectWaitOfAtLeast(key: string, seconds: number) {
  const row = await db.signInThrottle.findUniqueOrThrow({ where: { key } });
  expect(row.blocked_until).not.toBeNull();
  expect(row.blocked_until!.getTime() - row.last_failure_at.getTime()).toBeGreaterThanOrEqual(seconds * 1000 - 5);
  await db.signInThrottle.update({ where: { key }, data: { blocked_until: new Date(Math.max(row.blocked_until!.getTime(), Date.now() + 60_000)) } });
}

describe("sign-in brute force", () => {
  it("slows an account down after 5 failures, locks it after 10 with a clear message, and the lock expires", async () => {
    const user = await createUser({ password: "the-right-password" });
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect(await attempt(user.email, `wrong-${i}`, ip)).toBe("invalid");
    await expectWaitOfAtLeast(`account:${user.email}`, 5);

    // Within the wait, even the right password is refused: the wait is what makes guessing slow.
    const throttled = await attempt(user.email, "the-right-password", ip);
    expect(throttled).toMatch(new RegExp(`^${SIGN_IN_ERRORS.throttled}:\\d+$`));
    expect(signInErrorMessage(throttled)).toMatch(/Too many failed sign-ins.*try again in \d+ (seconds?|minutes)/);

    // Each failure past the fifth doubles the wait; the tenth locks the account for 15 minutes.
    for (let i = 5; i < 10; i++) {
      await waitOutBlock(`account:${user.email}`);
      expect(await attempt(user.email, `wrong-${i}`, ip)).toBe("invalid");
      if (i < 9) await expectWaitOfAtLeast(`account:${user.email}`, Math.min(5 * 2 ** (i - 4), 60));
    }
    const locked = await attempt(user.email, "the-right-password", ip);
    const seconds = Number(locked.split(":")[1]);
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expect(signInErrorMessage(locked)).toMatch(/try again in 15 minutes/);
    // Guessing from another address changes nothing: the lock is on the account.
    expect(await attempt(user.email, "the-right-password", randomIp())).toMatch(/^TOO_MANY_ATTEMPTS:/);

    await waitOutBlock(`account:${user.email}`);
    expect(await attempt(user.email, "the-right-password", ip)).toBe("ok");
    // A success starts the account afresh.
    expect(await db.signInThrottle.count({ where: { key: `account:${user.email}` } })).toBe(0);
  });

  it("treats an address with no account the same way (no hint that it does not exist)", async () => {
    const email = `nobody-${randomUUID()}@example.test`;
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect(await attempt(email, "guess", ip)).toBe("invalid");
    await expectWaitOfAtLeast(`account:${email}`, 5);
    expect(await attempt(email, "guess", ip)).toMatch(/^TOO_MANY_ATTEMPTS:/);
  });

  it("slows an IP address down after 20 failures, across accounts, whatever the password", async () => {
    const ip = randomIp();
    const user = await createUser({ password: "the-right-password" });
    for (let i = 0; i < 20; i++) expect(await attempt(`spray-${i}-${randomUUID()}@example.test`, "Summer2026!", ip)).toBe("invalid");
    await expectWaitOfAtLeast(`ip:${ip}`, 5);
    expect(await attempt(user.email, "the-right-password", ip)).toMatch(/^TOO_MANY_ATTEMPTS:/);
    // A made-up X-Forwarded-For does not make it another address (no TRUST_PROXY here).
    expect(await attempt(user.email, "the-right-password", ip, "203.0.113.77")).toMatch(/^TOO_MANY_ATTEMPTS:/);
    // The same account from another address is fine: the limit is on the address.
    expect(await attempt(user.email, "the-right-password", randomIp())).toBe("ok");
  });

  it("cannot be raced: a burst of parallel guesses still counts every one", async () => {
    const user = await createUser({ password: "the-right-password" });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(user.email, `wrong-${i}`, randomIp())));
    expect(results.filter((r) => r === "invalid").length).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.startsWith("TOO_MANY_ATTEMPTS")).length).toBeGreaterThanOrEqual(7);
  });
});
