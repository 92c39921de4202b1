import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailplatform, type WebhookEvent } from "@mailplatform/sdk";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { startApiServer } from "@/lib/testing/api-server";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";

// An application checking its endpoint through the SDK, over HTTP, against a real receiver.
let server: Awaited<ReturnType<typeof startApiServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let org: TestOrg;

beforeAll(async () => {
  server = await startApiServer();
  receiver = await startWebhookReceiver();
  org = await createTestOrg("SDK webhooks");
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

describe("webhooks through the SDK", () => {
  it("sends a test event the receiver verifies, reads its delivery log and replays it under the same id", async () => {
    const client = createMailplatform({ apiKey: org.owner.token, baseUrl: `${server.url}/` });
    const hook = await client.webhooks.create({ url: receiver.url, events: ["email.bounced"] });

    const tested = await client.webhooks.test(hook.id);
    expect(tested).toMatchObject({ event_type: "webhook.test", status: "succeeded", attempts: 1 });
    const event = new Webhook(hook.secret).verify(receiver.received[0].body, receiver.received[0].headers as Record<string, string>) as WebhookEvent;
    if (event.type !== "webhook.test") throw new Error(`expected webhook.test, got ${event.type}`);
    expect(event.data.webhook_id).toBe(hook.id);

    const replayed = await client.webhooks.replay(hook.id, tested.id);
    expect(replayed.attempt_log.map((a) => a.trigger)).toEqual(["replay", "test"]);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([tested.id, tested.id]);
    expect(await client.webhooks.getDelivery(hook.id, tested.id)).toEqual(replayed);
  });
});
