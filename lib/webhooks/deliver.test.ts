import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db, type DbClient } from "@/lib/db";
import { outboundPolicy, strictOutboundPolicy } from "@/lib/net/outbound-policy";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import { createTestOrg } from "@/lib/testing/api";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { DISABLE_AFTER_FAILURES, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, deliverWebhooks } from "./deliver";
import { dispatchEventsOf } from "@/lib/testing/events";
import { emitEvent as recordWebhookEvent, type WebhookEvent } from "./emit-event";

// The receiver listens on a random port of 127.0.0.1, which the production policy refuses.
const loopbackAllowed = outboundPolicy({ allowedPrivateHosts: ["127.0.0.1:*"] });

async function addWebhook(organizationId: string, url: string, events: WebhookEventType[] = ["email.opened"], active = true) {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const row = await db.webhook.create({
    data: { organization_id: organizationId, url, events, active, secret_encrypted: sealSecret(secret) },
  });
  return { ...row, secret };
}

/**
 * Records the event, then dispatches as the worker's events loop does: its deliveries exist afterwards (not before a transaction
 * commits). These tests are about delivering, so `data` is any marker, not the payload its type documents.
 */
async function emitEvent(client: DbClient, event: { organizationId: string; type: WebhookEventType; data: Record<string, unknown> }) {
  await recordWebhookEvent(client, event as WebhookEvent);
  if (client === db) await dispatchEventsOf(event.organizationId);
}

const deliveriesOf = (webhookId: string) => db.webhookDelivery.findMany({ where: { webhook_id: webhookId }, orderBy: { created_at: "asc" } });

describe("webhook delivery", () => {
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let organizationId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    organizationId = (await createTestOrg()).organizationId;
    receiver.received.length = 0;
  });

  it("queues a delivery only for enabled webhooks of the organization subscribed to the type", async () => {
    const subscribed = await addWebhook(organizationId, receiver.url, ["email.opened", "email.clicked"]);
    const otherType = await addWebhook(organizationId, receiver.url, ["email.sent"]);
    const disabled = await addWebhook(organizationId, receiver.url, ["email.opened"], false);
    const otherOrg = await addWebhook((await createTestOrg()).organizationId, receiver.url, ["email.opened"]);

    await emitEvent(db, { organizationId, type: "email.opened", data: { email_id: "e1" } });

    const queued = await deliveriesOf(subscribed.id);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ event_type: "email.opened", status: "pending", attempts: 0, organization_id: organizationId });
    expect(queued[0].payload).toMatchObject({ type: "email.opened", data: { email_id: "e1" } });
    for (const hook of [otherType, disabled, otherOrg]) expect(await deliveriesOf(hook.id)).toHaveLength(0);
  });

  it("emits inside a transaction: a rolled back change leaves no delivery", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    await expect(
      db.$transaction(async (tx) => {
        await emitEvent(tx, { organizationId, type: "email.opened", data: {} });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await deliveriesOf(hook.id)).toHaveLength(0);
  });

  it("POSTs the event signed on the Standard Webhooks scheme", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    await emitEvent(db, { organizationId, type: "email.opened", data: { email_id: "abc", to: ["x@example.com"] } });

    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0];
    const [delivery] = await deliveriesOf(hook.id);
    expect(headers["webhook-id"]).toBe(delivery.id);
    expect(headers["content-type"]).toBe("application/json");
    expect(Number(headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -2);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(hook.secret).verify(body, headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toMatchObject({ type: "email.opened", data: { email_id: "abc", to: ["x@example.com"] } });
    expect(new Date(verified.created_at as string).toISOString()).toBe(verified.created_at);
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(body, headers as Record<string, string>)).toThrow();

    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, response_status: 200, last_error: null, next_attempt_at: null });
    expect(delivery.delivered_at).toBeInstanceOf(Date);
    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(0);
  });

  it("retries a failed delivery with backoff, under the same webhook-id, until it succeeds", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    await db.webhook.update({ where: { id: hook.id }, data: { failure_count: 3 } });
    await emitEvent(db, { organizationId, type: "email.opened", data: { n: 1 } });
    receiver.answer(500);

    const before = Date.now();
    await deliverWebhooks({ organizationId, policy: loopbackAllowed });
    let [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, response_status: 500 });
    expect(delivery.last_error).toContain("HTTP 500");
    const wait = delivery.next_attempt_at!.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[0] * 1000 - 2000);
    expect(wait).toBeLessThanOrEqual(RETRY_DELAYS_SECONDS[0] * 1000 + 5000);
    expect((await db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failure_count).toBe(4);

    // Not due yet: nothing is sent.
    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(0);
    expect(receiver.received).toHaveLength(1);

    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { next_attempt_at: new Date(Date.now() - 1000) } });
    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(1);
    [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2, response_status: 200, last_error: null });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(receiver.received[0].headers["webhook-id"]);
    new Webhook(hook.secret).verify(receiver.received[1].body, receiver.received[1].headers as Record<string, string>);
    // A success ends the failure streak.
    expect((await db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failure_count).toBe(0);
  });

  it("backs off further after each failure and gives up after the last attempt", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    await emitEvent(db, { organizationId, type: "email.opened", data: {} });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      receiver.answer(503);
      await db.webhookDelivery.updateMany({ where: { webhook_id: hook.id }, data: { next_attempt_at: new Date(Date.now() - 1000) } });
      const before = Date.now();
      expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(1);
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(delivery.status).toBe("pending");
        waits.push(delivery.next_attempt_at!.getTime() - before);
      } else {
        expect(delivery).toMatchObject({ status: "failed", next_attempt_at: null, response_status: 503 });
      }
    }
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1] * 1.5);
    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(0);
  });

  it("resolves a host name itself and connects to the address it checked", async () => {
    const hook = await addWebhook(organizationId, `http://localhost:${receiver.port}/hooks`);
    await emitEvent(db, { organizationId, type: "email.opened", data: {} });
    await deliverWebhooks({ organizationId, policy: loopbackAllowed });
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.received).toHaveLength(1);
  });

  it("treats a redirect as a failure and does not follow it", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    await emitEvent(db, { organizationId, type: "email.opened", data: {} });
    receiver.answer(302);
    await deliverWebhooks({ organizationId, policy: loopbackAllowed });
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, response_status: 302 });
    expect(delivery.last_error).toContain("redirects are not followed");
    expect(receiver.received).toHaveLength(1);
  });

  it("records a failure whose answer holds NUL characters, and retries it", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    await emitEvent(db, { organizationId, type: "email.opened", data: {} });
    // PostgreSQL text cannot hold NUL: the answer once made the attempt unrecordable, and the
    // delivery was sent again every lease (5 min) for ever, never counted nor given up.
    receiver.answer({ status: 500, body: Buffer.from("no\u0000pe") });
    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(1);
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, response_status: 500, last_error: "HTTP 500: no\uFFFDpe" });
  });

  it("does not disable a webhook for a short burst of failures", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    for (let i = 0; i < DISABLE_AFTER_FAILURES + 2; i++) await emitEvent(db, { organizationId, type: "email.opened", data: { i } });
    receiver.answer(...new Array(DISABLE_AFTER_FAILURES + 2).fill(500));
    await deliverWebhooks({ organizationId, policy: loopbackAllowed });
    const after = await db.webhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(after.failure_count).toBe(DISABLE_AFTER_FAILURES + 2);
    expect(after.active).toBe(true);
  });

  it("disables a webhook after sustained failure, and stops delivering to it", async () => {
    const hook = await addWebhook(organizationId, receiver.url);
    // A day and more of failing: an old delivery that never got through, and a long failure streak.
    await db.webhookDelivery.create({
      data: {
        organization_id: organizationId,
        webhook_id: hook.id,
        event_type: "email.opened",
        payload: { type: "email.opened", created_at: new Date().toISOString(), data: {} },
        status: "failed",
        attempts: MAX_ATTEMPTS,
        next_attempt_at: null,
        created_at: new Date(Date.now() - 30 * 3_600_000),
      },
    });
    await db.webhook.update({ where: { id: hook.id }, data: { failure_count: DISABLE_AFTER_FAILURES - 1 } });
    await emitEvent(db, { organizationId, type: "email.opened", data: { n: 1 } });
    await emitEvent(db, { organizationId, type: "email.opened", data: { n: 2 } });
    receiver.answer(500, 500);

    await deliverWebhooks({ organizationId, policy: loopbackAllowed, concurrency: 1, batchSize: 1 });

    const after = await db.webhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(after.active).toBe(false);
    expect(after.failure_count).toBe(DISABLE_AFTER_FAILURES);
    expect(after.disabled_reason).toContain("failed deliveries in a row");
    expect(after.disabled_reason).toContain("HTTP 500");
    // The second event stays pending and is not sent while the webhook is disabled.
    expect(await deliverWebhooks({ organizationId, policy: loopbackAllowed })).toBe(0);
    expect(receiver.received).toHaveLength(1);
    // And a disabled webhook gets no new deliveries.
    await emitEvent(db, { organizationId, type: "email.opened", data: { n: 3 } });
    expect(await deliveriesOf(hook.id)).toHaveLength(3);
  });

  it("refuses loopback, private, link-local and metadata addresses under the production policy", async () => {
    const port = receiver.port;
    const urls = [
      receiver.url,
      `http://localhost:${port}/hooks`,
      `http://[::1]:${port}/hooks`,
      `http://0.0.0.0:${port}/hooks`,
      `http://[::ffff:127.0.0.1]:${port}/hooks`,
      "http://10.1.2.3/hooks",
      "http://172.20.0.1/hooks",
      "http://192.168.1.1/hooks",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/latest/meta-data/",
      "http://[fe80::1]/hooks",
      "https://100.100.100.200/hooks",
      "http://224.0.0.1/hooks",
    ];
    const hooks = [];
    for (const url of urls) hooks.push(await addWebhook(organizationId, url));
    await emitEvent(db, { organizationId, type: "email.opened", data: {} });

    expect(await deliverWebhooks({ organizationId, policy: strictOutboundPolicy })).toBe(urls.length);

    expect(receiver.received).toHaveLength(0);
    for (const hook of hooks) {
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery, hook.url).toMatchObject({ status: "pending", attempts: 1, response_status: null });
      expect(delivery.last_error, hook.url).toMatch(/^Refused to connect to .*not a public address$/);
      // What a name resolves to stays ours: the error never names an address.
      expect(delivery.last_error, hook.url).not.toMatch(/127\.0\.0\.1|::1|10\.1\.2\.3/);
    }
  });
});
