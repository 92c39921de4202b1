import { env } from "@/lib/env";

type Bucket = { tokens: number; updatedAt: number };

/**
 * A token bucket per credential, in process memory: cheap enough for every request, and an
 * approximate limit across several web processes (each enforces its own share), which is what a
 * per-credential limit is for — stopping a runaway client, not metering.
 */
export function createRateLimiter({ perSecond, burst = perSecond * 2, maxKeys = 100_000 }: { perSecond: number; burst?: number; maxKeys?: number }) {
  const buckets = new Map<string, Bucket>();
  return {
    /** 0 when the request may go ahead, else the seconds to wait before the next one will. */
    take(key: string, now = Date.now()): number {
      if (perSecond <= 0) return 0;
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) buckets.clear();
        bucket = { tokens: burst, updatedAt: now };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond);
      bucket.updatedAt = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
  };
}

export const rateLimiter = createRateLimiter({ perSecond: env.rateLimitPerSecond });
