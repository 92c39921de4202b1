import { beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter, policy, rateLimitHeaders, type BucketStore } from "./rate-limit";

/** The shared bucket in memory, counting round trips, with PostgreSQL's arithmetic. */
function memoryStore(clock: { now: number }) {
  const rows = new Map<string, { tokens: number; at: number }>();
  const store: BucketStore & { trips: number } = {
    trips: 0,
    async lease(key, { perSecond, burst }, want) {
      store.trips++;
      const row = rows.get(key) ?? { tokens: burst, at: clock.now };
      const available = Math.min(burst, row.tokens + ((clock.now - row.at) / 1000) * perSecond);
      const granted = Math.min(want, Math.floor(available));
      rows.set(key, { tokens: available - granted, at: clock.now });
      return { granted, tokens: available - granted };
    },
  };
  return store;
}

describe("rate limiter", () => {
  it("allows the burst, then refuses without asking the shared bucket again until a token is due", async () => {
    const clock = { now: Date.now() };
    const store = memoryStore(clock);
    const limiter = createRateLimiter(store);
    const p = policy("key", 5);
    expect(p).toMatchObject({ burst: 10, lease: 1 });
    const verdicts = [];
    for (let i = 0; i < 12; i++) verdicts.push(await limiter.take("a", p));
    expect(verdicts.map((v) => v.allowed)).toEqual([...Array(10).fill(true), false, false]);
    expect(verdicts[10]).toMatchObject({ remaining: 0, retryAfter: 1 });
    // The second refusal was local: no round trip.
    expect(store.trips).toBe(11);
    expect((await limiter.take("b", p)).allowed).toBe(true);
  });

  it("leases a tenth of a second's worth at a time, so most requests cost no round trip", async () => {
    const clock = { now: Date.now() };
    const store = memoryStore(clock);
    const limiter = createRateLimiter(store);
    const p = policy("key", 1000);
    expect(p.lease).toBe(100);
    for (let i = 0; i < 1000; i++) expect((await limiter.take("a", p)).allowed).toBe(true);
    expect(store.trips).toBe(10);
  });

  it("shares one bucket between processes: two limiters on one store together get the burst, not twice it", async () => {
    const clock = { now: Date.now() };
    const store = memoryStore(clock);
    const [one, two] = [createRateLimiter(store), createRateLimiter(store)];
    const p = policy("organization", 10);
    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await (i % 2 ? one : two).take("org", p)).allowed) allowed++;
    expect(allowed).toBe(20);
  });

  it("describes its verdicts in the RateLimit-Policy and RateLimit headers, with Retry-After when refused", () => {
    const p = policy("key", 50);
    const q = policy("organization", 100);
    expect(
      rateLimitHeaders([
        { policy: p, allowed: true, remaining: 99, reset: 1, retryAfter: 0 },
        { policy: q, allowed: true, remaining: 150, reset: 1, retryAfter: 0 },
      ]),
    ).toEqual({
      "ratelimit-policy": '"key";q=100;w=2, "organization";q=200;w=2',
      ratelimit: '"key";r=99;t=1, "organization";r=150;t=1',
    });
    expect(rateLimitHeaders([{ policy: p, allowed: false, remaining: 0, reset: 3, retryAfter: 3 }])).toMatchObject({ "retry-after": "3" });
  });
});

describe("a credential over its limit", () => {
  let api: typeof import("@/lib/testing/api");
  beforeAll(async () => {
    // env is read when modules load: set the limit, then load the app afresh in this file's process.
    process.env.RATE_LIMIT_PER_SECOND = "2";
    vi.resetModules();
    api = await import("@/lib/testing/api");
  });

  it("gets 429 RATE_LIMITED with Retry-After, while another credential is unaffected", async () => {
    const org = await api.createTestOrg();
    const other = await api.createTestOrg();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await org.owner.api.get("/v1/api-keys"));
    expect(answers.slice(0, 4).map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.body).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await other.owner.api.get("/v1/api-keys")).status).toBe(200);
  });
});
