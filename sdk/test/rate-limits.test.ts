import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailplatform } from "@mailplatform/sdk";

type Api = typeof import("@/lib/testing/api");
type Server = Awaited<ReturnType<typeof import("@/lib/testing/api-server").startApiServer>>;

let api: Api;
let server: Server;

beforeAll(async () => {
  // env is read when modules load: a small organization limit, then the app loaded afresh in this file's process.
  process.env.RATE_LIMIT_ORGANIZATION_PER_SECOND = "2";
  vi.resetModules();
  api = await import("@/lib/testing/api");
  server = await (await import("@/lib/testing/api-server")).startApiServer();
});
afterAll(() => server.close());

describe("the SDK over the API's rate limit", () => {
  it("waits out each 429 for the Retry-After the server gives, and every request succeeds", async () => {
    const org = await api.createTestOrg("SDK rate limit");
    const refused: string[] = [];
    const waits: number[] = [];
    const client = createMailplatform({
      apiKey: org.owner.token,
      baseUrl: server.url,
      fetch: async (request) => {
        const response = await fetch(request);
        if (response.status === 429) refused.push(response.headers.get("retry-after") ?? "");
        return response;
      },
      // Really waits: the bucket refills meanwhile.
      retry: { sleep: (ms) => (waits.push(ms), new Promise((resolve) => setTimeout(resolve, ms))) },
    });
    // A burst of 4 for the organization, then 2 a second: 8 requests meet the limit.
    for (let i = 0; i < 8; i++) expect(await client.webhooks.list().next()).toMatchObject({ done: true });
    expect(refused.length).toBeGreaterThan(0);
    expect(waits).toEqual(refused.map((seconds) => Number(seconds) * 1000));
    expect(waits.every((ms) => ms >= 1000)).toBe(true);

    const impatient = createMailplatform({ apiKey: org.owner.token, baseUrl: server.url, retry: false });
    const answers = await Promise.all(Array.from({ length: 6 }, () => impatient.GET("/v1/webhooks")));
    const limited = answers.find((a) => a.response.status === 429);
    expect(limited?.error).toMatchObject({ code: "RATE_LIMITED" });
  });
});
