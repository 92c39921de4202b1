import { beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("rate limiter", () => {
  it("allows a burst of twice the rate, then refuses with the wait, and refills over time", () => {
    const limiter = createRateLimiter({ perSecond: 5 });
    const t0 = 1_000_000;
    for (let i = 0; i < 10; i++) expect(limiter.take("key", t0)).toBe(0);
    expect(limiter.take("key", t0)).toBe(1);
    expect(limiter.take("other", t0)).toBe(0);
    expect(limiter.take("key", t0 + 200)).toBe(0);
    expect(limiter.take("key", t0 + 200)).toBe(1);
  });

  it("is off at 0 per second", () => {
    const limiter = createRateLimiter({ perSecond: 0 });
    for (let i = 0; i < 1000; i++) expect(limiter.take("key")).toBe(0);
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
