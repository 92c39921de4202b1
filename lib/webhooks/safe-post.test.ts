import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundPolicy } from "@/lib/net/outbound-policy";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { MAX_BODY_KEPT, safePost } from "./safe-post";

const loopbackAllowed = outboundPolicy({ allowedPrivateHosts: ["127.0.0.1:*"] });

describe("safePost", () => {
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it("bounds the whole exchange, a name server that never answers included", async () => {
    // A tenant's own name servers decide how long resolving its webhook's host takes.
    const silentDns = outboundPolicy({ lookup: () => new Promise(() => undefined) });
    await expect(safePost("https://hooks.example.com/in", "{}", {}, { policy: silentDns, timeoutMs: 300 })).rejects.toThrow("No answer within 300 ms");
  });

  it("keeps the first 2 KB of an answer and says whether there was more", async () => {
    receiver.answer({ status: 200, body: "a".repeat(MAX_BODY_KEPT) }, { status: 200, body: "b".repeat(MAX_BODY_KEPT + 1) }, { status: 500, body: "short" });
    const exact = await safePost(receiver.url, "{}", {}, { policy: loopbackAllowed });
    const over = await safePost(receiver.url, "{}", {}, { policy: loopbackAllowed });
    const short = await safePost(receiver.url, "{}", {}, { policy: loopbackAllowed });
    expect(exact).toEqual({ status: 200, body: "a".repeat(MAX_BODY_KEPT), truncated: false });
    expect(over).toEqual({ status: 200, body: "b".repeat(MAX_BODY_KEPT), truncated: true });
    expect(short).toEqual({ status: 500, body: "short", truncated: false });
  });
});
