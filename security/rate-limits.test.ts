import { beforeAll, describe, expect, it, vi } from "vitest";

// The limit was per API key, in each process's memory: any member could mint more keys (and the
// dashboard more sessions) to multiply it, a second web process doubled it, failed authentications
// were never limited, and no answer said where a client stood.

type Api = typeof import("@/lib/testing/api");
type Limits = typeof import("@/lib/api/rate-limit");
type Address = typeof import("@/lib/api/client-address");

let api: Api;
let limits: Limits;
let address: Address;

beforeAll(async () => {
  // env is read when modules load: set the limits, then load the app afresh in this file's process.
  process.env.RATE_LIMIT_PER_SECOND = "1000";
  process.env.RATE_LIMIT_ORGANIZATION_PER_SECOND = "2";
  process.env.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE = "5";
  vi.resetModules();
  api = await import("@/lib/testing/api");
  limits = await import("@/lib/api/rate-limit");
  address = await import("@/lib/api/client-address");
});

describe("rate limits", () => {
  it("limit an organization as a whole: a second key does not add to the allowance", async () => {
    const org = await api.createTestOrg("Two keys");
    const second = await api.client((await import("@/lib/services/api-keys").then((m) => m.issueApiKey(org.organizationId, org.owner.userId, "second"))).token);
    // Burst of 4 for the organization (twice 2 per second): 8 requests at once over two keys. The
    // bucket refills 2 a second while they are answered, so the bound counts the time they took (a
    // loaded machine took 4.7 s for them one after another, and let 6 through).
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? second : org.owner.api).get("/v1/api-keys").then((r) => r.status)));
    const refilled = Math.ceil(((Date.now() - started) / 1000) * 2);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4 + refilled);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(Math.max(1, 4 - refilled));
    // Asked again until refused (a token may have come back meanwhile), the refusal says why and when.
    let refused = await org.owner.api.get("/v1/api-keys");
    for (let i = 0; i < 10 && refused.status !== 429; i++) refused = await org.owner.api.get("/v1/api-keys");
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit")).toMatch(/"organization";r=0;t=\d+/);
    // Another organization is unaffected.
    expect((await (await api.createTestOrg("Neighbour")).owner.api.get("/v1/api-keys")).status).toBe(200);
  });

  it("share one bucket between web processes", async () => {
    const { createRateLimiter, policy, postgresBucketStore } = limits;
    const processes = [createRateLimiter(postgresBucketStore()), createRateLimiter(postgresBucketStore())];
    const p = policy("organization", 0.001, 10);
    const key = `org:shared-${Date.now()}`;
    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await processes[i % 2].take(key, p)).allowed) allowed++;
    expect(allowed).toBe(10);
  });

  it("limit failed authentications per client address, whatever X-Forwarded-For claims", async () => {
    const org = await api.createTestOrg("Brute force");
    const from = (peer: string, token: string, forwarded?: string) =>
      api.request("GET", "/v1/api-keys", { token, headers: { [address.PEER_HEADER]: peer, ...(forwarded ? { "x-forwarded-for": forwarded } : {}) } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await from("203.0.113.9", `not-a-key-${i}`, `198.51.100.${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    const refused = await from("203.0.113.9", "another-guess");
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toBe('"auth-failures";q=5;w=60');
    // While the address waits, not even a valid key is tried from it; another address is unaffected.
    expect((await from("203.0.113.9", org.owner.token)).status).toBe(429);
    expect((await from("203.0.113.10", "a-guess")).status).toBe(401);
    // A request without any credential guesses nothing and is not counted (a signed-out dashboard tab).
    for (let i = 0; i < 8; i++) expect((await api.request("GET", "/v1/api-keys", { headers: { [address.PEER_HEADER]: "203.0.113.11" } })).status).toBe(401);
    expect((await from("203.0.113.11", "a-guess")).status).toBe(401);
    expect((await from("203.0.113.10", org.owner.token)).status).toBe(200);
  });
});

describe("client address", () => {
  const requestFrom = (peer: string, forwarded: string) =>
    new Request("http://localhost/", { headers: { [address.PEER_HEADER]: peer, "x-forwarded-for": forwarded } });

  it("is the connection's address unless TRUST_PROXY says how many proxies append to X-Forwarded-For", async () => {
    expect(address.clientAddress(requestFrom("::ffff:192.0.2.1", "198.51.100.7"))).toBe("192.0.2.1");
    process.env.TRUST_PROXY = "1";
    vi.resetModules();
    const trusting = await import("@/lib/api/client-address");
    // One proxy: it appended the address it was reached from; what came before is the client's say.
    expect(trusting.clientAddress(requestFrom("10.0.0.2", "6.6.6.6, 198.51.100.7"))).toBe("198.51.100.7");
    const { visitorOf } = await import("@/lib/tracking/handlers");
    expect(visitorOf(requestFrom("10.0.0.2", "6.6.6.6, 198.51.100.7")).ip).toBe("198.51.100.7");
    delete process.env.TRUST_PROXY;
  });
});
