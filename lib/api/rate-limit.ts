import { pool } from "@/lib/db/pool";
import { env } from "@/lib/env";
import { AppError, rateLimited } from "@/lib/domain/errors";
import { normalizeEmail } from "@/lib/schemas/common";
import { errorField, log } from "@/lib/log";

/**
 * A token bucket: `burst` tokens, refilled at `perSecond`. The bucket itself lives in PostgreSQL
 * (rate_limit_buckets), shared by every web process; `name` is what the RateLimit headers call it.
 */
export type Policy = { name: string; perSecond: number; burst: number; /** Tokens a process takes from the shared bucket at once. */ lease: number };

export function policy(name: string, perSecond: number, burst = perSecond * 2, lease?: number): Policy {
  // A tenth of a second's worth at a time: one round trip to PostgreSQL per that many requests, and
  // never more than that many requests over the limit per process.
  return { name, perSecond, burst, lease: lease ?? Math.max(1, Math.min(Math.floor(burst), 1000, Math.ceil(perSecond / 10))) };
}

/** What one policy says about one request: for the RateLimit header, and Retry-After when refused. */
export type Verdict = { policy: Policy; allowed: boolean; remaining: number; /** seconds */ reset: number; /** seconds, when refused */ retryAfter: number };

/** Takes up to `want` tokens from the shared bucket `key`; answers how many it got and how many are left. */
export type BucketStore = { lease: (key: string, policy: Policy, want: number) => Promise<{ granted: number; tokens: number }> };

// One statement, atomic under concurrency: refill for the time since the last lease, take what is
// there up to `want`, remember what was taken (`granted`) so that RETURNING can say it.
const LEASE_SQL = `
  INSERT INTO rate_limit_buckets AS b (key, tokens, granted, updated_at)
  VALUES ($1, $3::float8 - least($4::float8, floor($3::float8)), least($4::float8, floor($3::float8)), now())
  ON CONFLICT (key) DO UPDATE SET
    granted = least($4::float8, floor(least($3::float8, b.tokens + $2::float8 * extract(epoch FROM now() - b.updated_at)::float8))),
    tokens = least($3::float8, b.tokens + $2::float8 * extract(epoch FROM now() - b.updated_at)::float8)
      - least($4::float8, floor(least($3::float8, b.tokens + $2::float8 * extract(epoch FROM now() - b.updated_at)::float8))),
    updated_at = now()
  RETURNING granted, tokens`;

// A bucket untouched this long is full again, the same as no row at all.
const SWEEP_SQL = "DELETE FROM rate_limit_buckets WHERE updated_at < now() - interval '1 hour'";
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** @public The buckets in PostgreSQL (security/rate-limits.test.ts loads this module dynamically to build two processes' limiters). */
export function postgresBucketStore(): BucketStore {
  let nextSweep = Date.now() + SWEEP_EVERY_MS;
  return {
    async lease(key, { perSecond, burst }, want) {
      if (Date.now() > nextSweep) {
        nextSweep = Date.now() + SWEEP_EVERY_MS;
        pool.query(SWEEP_SQL).catch(() => undefined);
      }
      const { rows } = await pool.query<{ granted: number; tokens: number }>(LEASE_SQL, [key, perSecond, burst, want]);
      return { granted: rows[0].granted, tokens: rows[0].tokens };
    },
  };
}

/** Leased tokens not used within this time are dropped: the shared bucket has refilled meanwhile. */
const LEASE_MS = 1000;

type Local = {
  /** Tokens this process leased and has not used yet, valid until `heldUntil`. */
  held: number;
  heldUntil: number;
  /** What the shared bucket held after the last lease, and when. */
  shared: number;
  sharedAt: number;
  blockedUntil: number;
  leasing: Promise<void> | null;
};

/**
 * Rate limits shared across processes that cost no database round trip on most requests: each
 * process leases a few tokens from the shared bucket and spends them locally, and once the shared
 * bucket is empty it refuses locally until a token is due back.
 */
export function createRateLimiter(store: BucketStore, { maxKeys = 100_000 } = {}) {
  const buckets = new Map<string, Local>();
  let quietUntil = 0;

  const verdict = (p: Policy, local: Local, now: number, allowed: boolean): Verdict => {
    if (!allowed) {
      const retryAfter = Math.max(1, Math.ceil((local.blockedUntil - now) / 1000));
      return { policy: p, allowed, remaining: 0, reset: retryAfter, retryAfter };
    }
    const refilled = local.shared + ((now - local.sharedAt) / 1000) * p.perSecond;
    const remaining = Math.max(0, Math.floor(Math.min(p.burst, refilled + local.held)));
    return { policy: p, allowed, remaining, reset: Math.ceil((p.burst - remaining) / p.perSecond), retryAfter: 0 };
  };

  async function lease(key: string, p: Policy, local: Local) {
    let granted: number;
    let tokens: number;
    try {
      ({ granted, tokens } = await store.lease(key, p, p.lease));
    } catch (error) {
      // Without the database the limit is kept per process rather than not at all, and the request
      // goes on to meet whatever the outage does to it.
      if (Date.now() > quietUntil) {
        quietUntil = Date.now() + 10_000;
        log.error({ err: errorField(error) }, "rate limit: the shared bucket could not be read; limiting per process meanwhile");
      }
      granted = p.lease;
      tokens = 0;
    }
    const now = Date.now();
    local.held = (now < local.heldUntil ? local.held : 0) + granted;
    local.heldUntil = now + LEASE_MS;
    local.shared = tokens;
    local.sharedAt = now;
    // Refused until the bucket has a whole token again.
    if (granted < 1) local.blockedUntil = now + Math.max(1, ((1 - tokens) / p.perSecond) * 1000);
  }

  function local(key: string): Local {
    let found = buckets.get(key);
    if (!found) {
      // Only a cache of the shared state: forgetting it costs a lease per key, nothing more.
      if (buckets.size >= maxKeys) buckets.clear();
      found = { held: 0, heldUntil: 0, shared: 0, sharedAt: 0, blockedUntil: 0, leasing: null };
      buckets.set(key, found);
    }
    return found;
  }

  return {
    /** Takes one token from `key`'s bucket under `p`. */
    async take(key: string, p: Policy): Promise<Verdict> {
      const bucket = local(key);
      for (;;) {
        const now = Date.now();
        if (now < bucket.blockedUntil) return verdict(p, bucket, now, false);
        if (bucket.held >= 1 && now < bucket.heldUntil) {
          bucket.held -= 1;
          return verdict(p, bucket, now, true);
        }
        // Requests that arrive while a lease is on its way wait for it rather than lease again.
        bucket.leasing ??= lease(key, p, bucket).finally(() => (bucket.leasing = null));
        await bucket.leasing;
      }
    },

    /** Refused already, as far as this process knows, without taking a token: no database round trip. */
    refused(key: string, p: Policy): Verdict | null {
      const bucket = buckets.get(key);
      const now = Date.now();
      return bucket && now < bucket.blockedUntil ? verdict(p, bucket, now, false) : null;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

const keyPolicy = policy("key", env.rateLimitPerSecond);
const organizationPolicy = policy("organization", env.rateLimitOrganizationPerSecond);
// Every failure is counted in the shared bucket: no local allowance.
const authFailurePolicy = policy("auth-failures", env.rateLimitAuthFailuresPerMinute / 60, env.rateLimitAuthFailuresPerMinute, 1);

// One per process, kept across hot reloads in development.
const globalForLimiter = globalThis as unknown as { rateLimiter?: RateLimiter };
const limiter = (globalForLimiter.rateLimiter ??= createRateLimiter(postgresBucketStore()));

const addressKey = (address: string | null) => `ip:${address ?? "unknown"}`;

// Every request is counted in the shared bucket (lease 1): these limits are a few an hour.
const resetsPerClientPolicy = policy("password-resets-client", env.passwordResetsPerClientPerHour / 3600, env.passwordResetsPerClientPerHour, 1);
const resetsPerAddressPolicy = policy("password-resets-address", env.passwordResetsPerHour / 3600, env.passwordResetsPerHour, 1);
// Public forms: one bucket per client address across every form, leased a few tokens at a time like the API's.
const formSubmissionsPolicy = policy("form-submissions", env.formSubmissionsPerMinute / 60, env.formSubmissionsPerMinute);

/** The RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of these verdicts. */
export function rateLimitHeaders(verdicts: Verdict[]): Record<string, string> {
  if (verdicts.length === 0) return {};
  const headers: Record<string, string> = {
    "ratelimit-policy": verdicts.map(({ policy: p }) => `"${p.name}";q=${Math.floor(p.burst)};w=${Math.max(1, Math.round(p.burst / p.perSecond))}`).join(", "),
    ratelimit: verdicts.map((v) => `"${v.policy.name}";r=${v.remaining};t=${v.reset}`).join(", "),
  };
  const refused = verdicts.filter((v) => !v.allowed);
  if (refused.length) headers["retry-after"] = String(Math.max(...refused.map((v) => v.retryAfter)));
  return headers;
}

/** 429 for the first refused verdict, or null. */
export function refusal(verdicts: Verdict[]): AppError | null {
  const refused = verdicts.find((v) => !v.allowed);
  if (!refused) return null;
  const whose =
    refused.policy === authFailurePolicy
      ? "Too many failed authentications from this address"
      : `Too many requests for this ${refused.policy.name === "key" ? "credential" : "organization"}`;
  return new AppError("RATE_LIMITED", `${whose}; retry in ${refused.retryAfter} s`);
}

export const rateLimits = {
  /** A request from a credential: one token from its own bucket, then one from its organization's. */
  async forCaller(credential: string, organizationId: string | null): Promise<Verdict[]> {
    const verdicts: Verdict[] = [];
    if (keyPolicy.perSecond > 0) {
      const own = await limiter.take(credential, keyPolicy);
      verdicts.push(own);
      if (!own.allowed) return verdicts;
    }
    if (organizationId && organizationPolicy.perSecond > 0) verdicts.push(await limiter.take(`org:${organizationId}`, organizationPolicy));
    return verdicts;
  },

  /** An address that failed to authenticate too often is refused before it may try again. */
  blockedAddress(address: string | null): Verdict[] {
    if (authFailurePolicy.perSecond <= 0) return [];
    const refused = limiter.refused(addressKey(address), authFailurePolicy);
    return refused ? [refused] : [];
  },

  /**
   * "Forgot password?": at most so many requests an hour from one client and for one address
   * (whether or not it has an account, so the limit tells nothing either), else 429.
   */
  async passwordResetRequest(email: string, address: string | null): Promise<void> {
    const client = await limiter.take(`password-reset:${addressKey(address)}`, resetsPerClientPolicy);
    if (!client.allowed)
      throw rateLimited(`Too many password reset requests from this address; try again in ${Math.ceil(client.retryAfter / 60)} min`, client.retryAfter);
    const named = await limiter.take(`password-reset:email:${normalizeEmail(email).slice(0, 320)}`, resetsPerAddressPolicy);
    if (!named.allowed)
      throw rateLimited(`Too many password reset requests for this email address; try again in ${Math.ceil(named.retryAfter / 60)} min`, named.retryAfter);
  },

  /** A public form's submission from `address`: refused (with its Retry-After) past FORM_SUBMISSIONS_PER_MINUTE. */
  formSubmission(address: string | null): Promise<Verdict> {
    return limiter.take(`form:${addressKey(address)}`, formSubmissionsPolicy);
  },

  /**
   * A preference page's save or a form's confirmation from `address`: no credential but a signed
   * link, so only the client's address bounds how often one link can write choices and events. The
   * allowance of submissions, each in a bucket of its own.
   */
  consentPageWrite(page: "preferences" | "confirmation", address: string | null): Promise<Verdict> {
    return limiter.take(`${page}:${addressKey(address)}`, formSubmissionsPolicy);
  },

  /** Counts a failed authentication against the address. */
  async failedAuthentication(address: string | null): Promise<Verdict[]> {
    if (authFailurePolicy.perSecond <= 0) return [];
    return [await limiter.take(addressKey(address), authFailurePolicy)];
  },
};
