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

type Row = { failures: number; blocked_until: Date | null; counted: boolean };

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
    // `prior` locks the row first, so `counted` says what this statement did to the latest version.
    const [row] = await db.$queryRawUnsafe<Row[]>(
      `WITH prior AS (SELECT blocked_until > now() AS blocked FROM sign_in_throttles WHERE key = $1 FOR UPDATE)
       INSERT INTO sign_in_throttles AS t (key, failures, last_failure_at, blocked_until)
       SELECT $1, 1, now(), NULL FROM (SELECT count(*) FROM prior) AS read_prior_first
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.blocked_until > now() THEN t.failures ELSE ${next} END,
         last_failure_at = CASE WHEN t.blocked_until > now() THEN t.last_failure_at ELSE now() END,
         blocked_until = CASE
           WHEN t.blocked_until > now() THEN t.blocked_until
           WHEN ${next} >= $3::int THEN now() + make_interval(secs => $4::int)
           WHEN ${next} >= $2::int THEN now() + make_interval(secs => least(5 * power(2, ${next} - $2::int), $5::int))
           ELSE NULL END
       RETURNING failures, blocked_until, NOT coalesce((SELECT blocked FROM prior), false) AS counted`,
      key,
      policy.free,
      policy.lockAt,
      policy.lockSeconds,
      policy.maxBackoff,
    );
    if (!row.counted && row.blocked_until) {
      retryAfter = Math.max(retryAfter, Math.ceil((row.blocked_until.getTime() - Date.now()) / 1000));
      locked ||= row.failures >= policy.lockAt;
    } else if (row.failures === policy.lockAt) {
      lockedNow = true;
    }
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
