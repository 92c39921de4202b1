import { db } from "@/lib/db";

/**
 * How many failed sign-ins a key may have: the first `free` cost nothing, each later one makes the
 * next attempt wait 5 × 2^(n - free) seconds (at most `maxBackoff`), and at `lockAt` the key is
 * locked for `lockSeconds`. Failures are forgotten a day after the last one.
 */
type Policy = { free: number; maxBackoff: number; lockAt: number; lockSeconds: number };

export const ACCOUNT_POLICY: Policy = { free: 5, maxBackoff: 60, lockAt: 10, lockSeconds: 15 * 60 };
// An address may be shared (an office behind one NAT), so it gets more room than one account.
export const IP_POLICY: Policy = { free: 20, maxBackoff: 60, lockAt: 100, lockSeconds: 15 * 60 };

export const accountKey = (email: string) => `account:${email}`;
export const ipKey = (ip: string) => `ip:${ip}`;

type Keyed = { key: string; policy: Policy };

export type Attempt = { allowed: true; keys: Keyed[]; lockedNow: boolean } | { allowed: false; retryAfterSeconds: number; locked: boolean };

type Row = { failures: number; blocked_until: Date | null };

/**
 * Counts this attempt as a failure before the password is even checked, in one statement per key:
 * concurrent guesses each see the count the others left, so a burst cannot slip past the limit.
 * A key that is still blocked is not counted again; the attempt is refused with the wait.
 * `succeeded` takes the count back when the password turns out right.
 */
export async function beginSignInAttempt(keys: Keyed[]): Promise<Attempt> {
  let retryAfter = 0;
  let locked = false;
  let lockedNow = false;
  for (const { key, policy } of keys) {
    const next = `CASE WHEN t.last_failure_at < now() - interval '1 day' THEN 1 ELSE t.failures + 1 END`;
    // Whether this attempt counted is whether the statement wrote a row: the update's WHERE is checked
    // on the latest version of the row, after waiting for whoever holds it. (Reading the row before
    // the insert cannot tell: at an address never tried, a burst's statements all start with no row to
    // read, then all but one meet the row the first inserted — and each took itself as counted.)
    const [row] = await db.$queryRawUnsafe<Row[]>(
      `INSERT INTO sign_in_throttles AS t (key, failures, last_failure_at, blocked_until)
       VALUES ($1, 1, now(), NULL)
       ON CONFLICT (key) DO UPDATE SET
         failures = ${next},
         last_failure_at = now(),
         blocked_until = CASE
           WHEN ${next} >= $3::int THEN now() + make_interval(secs => $4::int)
           WHEN ${next} >= $2::int THEN now() + make_interval(secs => least(5 * power(2, ${next} - $2::int), $5::int))
           ELSE NULL END
       WHERE t.blocked_until IS NULL OR t.blocked_until <= now()
       RETURNING failures, blocked_until`,
      key,
      policy.free,
      policy.lockAt,
      policy.lockSeconds,
      policy.maxBackoff,
    );
    if (row) {
      if (row.failures === policy.lockAt) lockedNow = true;
      continue;
    }
    // Blocked: not counted again, refused with the time left (at least a second, should the block
    // have ended between the two statements).
    const blocked = await db.signInThrottle.findUnique({ where: { key }, select: { failures: true, blocked_until: true } });
    const left = blocked?.blocked_until ? Math.ceil((blocked.blocked_until.getTime() - Date.now()) / 1000) : 0;
    retryAfter = Math.max(retryAfter, left, 1);
    locked ||= (blocked?.failures ?? 0) >= policy.lockAt;
  }
  if (retryAfter > 0) return { allowed: false, retryAfterSeconds: retryAfter, locked };
  // Every address ever tried leaves a row; now and then the forgotten ones go, so the table stays small.
  if (Math.random() < 0.01) {
    await db.$executeRaw`DELETE FROM sign_in_throttles WHERE last_failure_at < now() - interval '1 day' AND (blocked_until IS NULL OR blocked_until < now())`;
  }
  return { allowed: true, keys, lockedNow };
}

/**
 * The password was right: the account starts afresh; the address only gets this attempt back, so
 * one valid account cannot clear the way for guesses at others.
 */
export async function signInSucceeded(keys: Keyed[], accountKeyValue: string): Promise<void> {
  for (const { key } of keys) {
    if (key === accountKeyValue) {
      await db.signInThrottle.deleteMany({ where: { key } });
    } else {
      await db.$executeRaw`UPDATE sign_in_throttles SET failures = greatest(failures - 1, 0),
        blocked_until = CASE WHEN failures - 1 < ${IP_POLICY.free} THEN NULL ELSE blocked_until END WHERE key = ${key}`;
    }
  }
}

/** Neither a success nor a failure (the password was right, a second factor is still needed). */
export async function uncountAttempt(keys: Keyed[]): Promise<void> {
  for (const { key, policy } of keys) {
    await db.$executeRaw`UPDATE sign_in_throttles SET failures = greatest(failures - 1, 0),
      blocked_until = CASE WHEN failures - 1 < ${policy.free} THEN NULL ELSE blocked_until END WHERE key = ${key}`;
  }
}
