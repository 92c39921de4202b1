import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundPolicy } from "@/lib/net/outbound-policy";
import { replayWebhookDelivery, testWebhook } from "@/lib/services/webhook-deliveries";
import { createWebhook } from "@/lib/services/webhooks";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { fakeResolver, ownerContext } from "./trust-fixtures";

// A test event and a replay make the server send HTTP to a tenant's URL the moment a request asks,
// and answer with what came back: the same outbound address policy as every delivery, checked on
// the address resolved at connect time, so a name that turned private since it was saved (DNS
// rebinding) reaches nothing, and the log says so without naming an address.

describe("webhook test events and replays on private addresses", () => {
  let org: TestOrg;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    org = await createTestOrg("Rebinding");
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  // Public when the webhook is saved, loopback (where the receiver listens) ever after.
  const rebinding = () => fakeResolver((name, call) => (name === "hooks.rebind.example" && call === 0 ? ["93.184.216.34"] : ["127.0.0.1"])).lookup;

  it("refuses the receiver's loopback address at connect time, for a test and for a replay", async () => {
    const ctx = ownerContext(org);
    const strict = outboundPolicy({ lookup: rebinding() });
    const hook = await createWebhook(ctx, { url: `http://hooks.rebind.example:${receiver.port}/hooks`, events: ["email.sent"] }, strict);

    const tested = await testWebhook(ctx, hook.id, { policy: strict });
    const replayed = await replayWebhookDelivery(ctx, hook.id, tested.id, { policy: strict });
    expect(receiver.received).toHaveLength(0);
    expect(replayed).toMatchObject({ status: "failed", attempts: 2, response_status: null });
    for (const attempt of replayed.attempt_log) {
      expect(attempt).toMatchObject({ succeeded: false, response: null, error: "Refused to connect to the destination: not a public address" });
    }
    expect(JSON.stringify(replayed)).not.toContain("127.0.0.1");

    // An address literal the policy refuses (here, loopback the suite's own settings would admit) is not reached either.
    const literal = await createWebhook(ctx, { url: receiver.url, events: ["email.sent"] }, outboundPolicy({ allowedPrivateHosts: ["127.0.0.1:*"] }));
    const strictLiteral = await testWebhook(ctx, literal.id, { policy: outboundPolicy() });
    await replayWebhookDelivery(ctx, literal.id, strictLiteral.id, { policy: outboundPolicy() });
    expect(receiver.received).toHaveLength(0);
    expect(strictLiteral.last_error).toBe("Refused to connect to the destination: not a public address");

    // Control: where the operator admits the address, the same webhook is reached, at the address checked.
    const admitted = outboundPolicy({ lookup: fakeResolver(() => ["127.0.0.1"]).lookup, allowedPrivateHosts: ["127.0.0.1:*"] });
    expect((await testWebhook(ctx, hook.id, { policy: admitted })).status).toBe("succeeded");
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].headers.host).toBe(`hooks.rebind.example:${receiver.port}`);
  });
});
