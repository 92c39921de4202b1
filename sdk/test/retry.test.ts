import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createMailplatform, MailplatformError } from "@mailplatform/sdk";

// The retry rules, against a real HTTP server that answers what each test scripts. What a real
// 429 of the API looks like is in rate-limits.test.ts.
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | "drop";

async function scriptedServer(answers: Answer[]) {
  const requests: { method: string; url: string; key: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method!, url: req.url!, key: req.headers["idempotency-key"] as string | undefined });
    req.resume();
    const answer = answers.shift() ?? { status: 200, body: { success: true } };
    if (answer === "drop") return req.socket.destroy();
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.body ?? { error: "scripted", code: answer.status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const template = { id: "8c5e3f4e-2d7c-4a57-9a53-1f0c2a8e7b11", name: "T" };

function client(url: string, retry: Parameters<typeof createMailplatform>[0]["retry"] = {}) {
  const waits: number[] = [];
  const sdk = createMailplatform({
    apiKey: "key",
    baseUrl: url,
    retry: retry && { random: () => 0.5, ...retry, sleep: async (ms) => void waits.push(ms) },
  });
  return { sdk, waits };
}

describe("retries", () => {
  it("wait what Retry-After says on 429 and 503, then succeed", async () => {
    const server = await scriptedServer([
      { status: 429, headers: { "retry-after": "2" } },
      { status: 503, headers: { "retry-after": "1" } },
      { status: 200, body: template },
    ]);
    const { sdk, waits } = client(server.url);
    expect(await sdk.templates.get(template.id)).toEqual(template);
    expect(waits).toEqual([2000, 1000]);
    expect(server.requests).toHaveLength(3);
  });

  it("back off exponentially with jitter when no Retry-After is given, within the bound of attempts", async () => {
    const server = await scriptedServer([{ status: 502 }, { status: 500 }, { status: 504 }, { status: 503 }]);
    const { sdk, waits } = client(server.url, { maxRetries: 3, baseDelayMs: 100 });
    const error = await sdk.templates.get(template.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailplatformError);
    expect(error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" });
    // Half of 100·2^n fixed, the other half random (0.5 here).
    expect(waits).toEqual([75, 150, 300]);
    expect(server.requests).toHaveLength(4);
  });

  it("repeat a send after a failure with the same key, but not a create that has none", async () => {
    const server = await scriptedServer([{ status: 500 }, "drop", { status: 201, body: { id: template.id } }, { status: 500 }]);
    const { sdk } = client(server.url);
    await sdk.emails.send({ to: "a@example.test", from: "b@example.test", subject: "s", text: "t" });
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    expect(new Set(server.requests.map((r) => r.key)).size).toBe(1);
    expect(server.requests[0].key).toMatch(/^[0-9a-f-]{36}$/);
    await expect(sdk.templates.create({ name: "n", subject: "s" })).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(4);
    expect(server.requests[3].key).toBeUndefined();
  });

  it("give up at once when Retry-After asks for longer than the longest wait, or retries are off", async () => {
    const server = await scriptedServer([{ status: 429, headers: { "retry-after": "3600" } }, { status: 503 }]);
    const { sdk, waits } = client(server.url, { maxDelayMs: 60_000 });
    await expect(sdk.templates.get(template.id)).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(waits).toEqual([]);
    const off = client(server.url, false);
    await expect(off.sdk.templates.get(template.id)).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(2);
  });
});
