import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { replayWebhookDelivery, testWebhook } from "@/lib/services/webhook-deliveries";
import { consumeQuota } from "@/lib/services/usage-windows";
import { env } from "@/lib/env";
import { client, createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordAttemptSql } from "@/lib/webhooks/attempt-log";
import { deliverWebhooks } from "@/lib/webhooks/deliver";

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
type Headers = Record<string, string>;

const ctxOf = (org: TestOrg): OrgContext => ({
  organizationId: org.organizationId,
  userId: org.owner.userId,
  userEmail: org.owner.email,
  apiKeyId: null,
  role: "owner",
});

/** A webhook made through the API, with the secret it showed once. */
async function addWebhook(org: TestOrg, url: string) {
  const created = await org.owner.api.post("/v1/webhooks", { url, events: ["contact.created"] });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

/** A real event (a contact created through the API) delivered once by the worker's loops, as in production. */
async function deliveredEvent(org: TestOrg) {
  expect((await org.owner.api.post("/v1/contacts", { email: `c-${randomId()}@example.net` })).status).toBe(201);
  await dispatchEventsOf(org.organizationId);
  expect(await deliverWebhooks({ organizationId: org.organizationId })).toBe(1);
  return db.webhookDelivery.findFirstOrThrow({
    where: { organization_id: org.organizationId, event_type: "contact.created" },
    orderBy: { created_at: "desc" },
  });
}

const verify = (secret: string, received: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(received.body, received.headers as Headers) as Record<string, unknown>;

describe("Webhook test events, replays and the delivery log", () => {
  let receiver: Receiver;
  let org: TestOrg;
  let other: TestOrg;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    other = await createTestOrg();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    org = await createTestOrg();
    receiver.received.length = 0;
  });

  it("delivers a signed webhook.test event and answers the delivery with its log", async () => {
    const hook = await addWebhook(org, receiver.url);
    const answer = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    expect(answer.status).toBe(201);

    expect(receiver.received).toHaveLength(1);
    const [arrived] = receiver.received;
    const event = verify(hook.secret, arrived);
    expect(documentedPayload(event)).toMatchObject({ type: "webhook.test", data: { webhook_id: hook.id } });
    expect(arrived.headers["webhook-id"]).toBe(answer.body.id);

    expect(answer.body).toMatchObject({
      webhook_id: hook.id,
      event_type: "webhook.test",
      status: "succeeded",
      attempts: 1,
      response_status: 200,
      next_attempt_at: null,
    });
    // The log shows exactly what was sent: the body byte for byte, the headers with the signature.
    expect(answer.body.request_body).toBe(arrived.body);
    expect(answer.body.attempt_log).toHaveLength(1);
    const [attempt] = answer.body.attempt_log;
    expect(attempt).toMatchObject({ trigger: "test", succeeded: true, error: null, response: { status: 200, body: "ok", body_truncated: false } });
    expect(attempt.request.url).toBe(receiver.url);
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"])
      expect(attempt.request.headers[name]).toBe(arrived.headers[name]);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    expect(answer.body.duration_ms).toBe(attempt.duration_ms);
    // The secret is in no answer.
    const secretKey = hook.secret.slice("whsec_".length);
    const detail = await org.owner.api.get(`/v1/webhooks/${hook.id}/deliveries/${answer.body.id}`);
    const list = await org.owner.api.get(`/v1/webhooks/${hook.id}/deliveries`);
    for (const body of [answer.body, detail.body, list.body]) expect(JSON.stringify(body)).not.toContain(secretKey);
    expect(detail.body).toEqual(answer.body);
    expect(list.body.data[0]).toMatchObject({ id: answer.body.id, duration_ms: attempt.duration_ms, last_attempt_at: attempt.attempted_at });
  });

  it("tests a disabled webhook too, tries a test once and leaves the webhook's failure count alone", async () => {
    const hook = await addWebhook(org, receiver.url);
    await org.owner.api.put(`/v1/webhooks/${hook.id}/toggle`);
    receiver.answer(500);
    const answer = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    expect(answer.body).toMatchObject({ status: "failed", attempts: 1, response_status: 500, next_attempt_at: null, last_error: "HTTP 500: receiver says no" });
    expect(answer.body.attempt_log[0]).toMatchObject({ succeeded: false, response: { status: 500, body: "receiver says no" } });
    expect(receiver.received).toHaveLength(1);
    // Enabled again, the worker has nothing to retry, and no failure was counted.
    await org.owner.api.put(`/v1/webhooks/${hook.id}/toggle`);
    expect(await deliverWebhooks({ organizationId: org.organizationId })).toBe(0);
    expect((await db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failure_count).toBe(0);
  });

  it("replays a delivery with the same webhook-id and body, as a new attempt in its log", async () => {
    const hook = await addWebhook(org, receiver.url);
    receiver.answer(503);
    const failed = await deliveredEvent(org);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, response_status: 503 });
    const retryAt = failed.next_attempt_at;

    // A replay that fails changes neither the status nor the next retry.
    receiver.answer(500);
    const stillFailing = await org.owner.api.post(`/v1/webhooks/${hook.id}/deliveries/${failed.id}/replay`);
    expect(stillFailing.status).toBe(200);
    expect(stillFailing.body).toMatchObject({ status: "pending", attempts: 2, response_status: 500, next_attempt_at: retryAt!.toISOString() });

    const replayed = await org.owner.api.post(`/v1/webhooks/${hook.id}/deliveries/${failed.id}/replay`);
    expect(replayed.body).toMatchObject({ id: failed.id, status: "succeeded", attempts: 3, response_status: 200, last_error: null, next_attempt_at: null });
    expect(replayed.body.attempt_log.map((a: { trigger: string }) => a.trigger)).toEqual(["replay", "replay", "automatic"]);
    expect(replayed.body.attempt_log.map((a: { response: { status: number } }) => a.response.status)).toEqual([200, 500, 503]);

    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toEqual([failed.id, failed.id, failed.id]);
    // The same bytes each time, each signed anew (and verified with the webhook's secret).
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(replayed.body.request_body).toBe(receiver.received[0].body);
    for (const arrived of receiver.received) expect(documentedPayload(verify(hook.secret, arrived))).toMatchObject({ type: "contact.created" });
    // A success ends the webhook's failure streak, and the worker has nothing left to send.
    expect((await db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failure_count).toBe(0);
    expect(await deliverWebhooks({ organizationId: org.organizationId })).toBe(0);
    const audit = await org.owner.api.get("/v1/audit-log?action=webhook.delivery_replayed");
    expect(audit.body.data).toHaveLength(2);

    // A test delivery can be replayed as well: the same test event again.
    const tested = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    const again = await org.owner.api.post(`/v1/webhooks/${hook.id}/deliveries/${tested.body.id}/replay`);
    expect(again.body.attempt_log.map((a: { trigger: string }) => a.trigger)).toEqual(["replay", "test"]);
    expect(receiver.received.slice(-2).map((r) => r.headers["webhook-id"])).toEqual([tested.body.id, tested.body.id]);
    expect(receiver.received.at(-1)!.body).toBe(receiver.received.at(-2)!.body);
  });

  it("keeps a delivery succeeded when a replay got through while the worker's attempt was failing", async () => {
    const hook = await addWebhook(org, receiver.url);
    expect((await org.owner.api.post("/v1/contacts", { email: `c-${randomId()}@example.net` })).status).toBe(201);
    await dispatchEventsOf(org.organizationId);
    const [queued] = await db.webhookDelivery.findMany({ where: { webhook_id: hook.id } });
    receiver.answer("hang");
    const worker = deliverWebhooks({ organizationId: org.organizationId, timeoutMs: 1_500 });
    while (receiver.received.length < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const replayed = await org.owner.api.post(`/v1/webhooks/${hook.id}/deliveries/${queued.id}/replay`);
    expect(replayed.body).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await worker).toBe(1);
    const detail = await org.owner.api.get(`/v1/webhooks/${hook.id}/deliveries/${queued.id}`);
    expect(detail.body).toMatchObject({ status: "succeeded", attempts: 2, next_attempt_at: null });
    expect(detail.body.attempt_log.map((a: { trigger: string; succeeded: boolean }) => [a.trigger, a.succeeded])).toEqual([
      ["replay", true],
      ["automatic", false],
    ]);
    expect(await deliverWebhooks({ organizationId: org.organizationId })).toBe(0);
  });

  it("answers 404 for another organization's webhook or delivery and sends nothing", async () => {
    const hook = await addWebhook(org, receiver.url);
    const sibling = await addWebhook(org, receiver.url);
    const theirs = await addWebhook(other, receiver.url);
    const theirDelivery = (await other.owner.api.post(`/v1/webhooks/${theirs.id}/test`)).body.id as string;
    const siblingDelivery = (await org.owner.api.post(`/v1/webhooks/${sibling.id}/test`)).body.id as string;
    receiver.received.length = 0;

    expectError(await org.owner.api.post(`/v1/webhooks/${theirs.id}/test`), 404, "NOT_FOUND");
    expectError(await org.owner.api.post(`/v1/webhooks/${randomId()}/test`), 404, "NOT_FOUND");
    for (const path of [
      `/v1/webhooks/${theirs.id}/deliveries/${theirDelivery}`,
      `/v1/webhooks/${hook.id}/deliveries/${theirDelivery}`,
      // A delivery of another webhook of the same organization is not this one's.
      `/v1/webhooks/${hook.id}/deliveries/${siblingDelivery}`,
      `/v1/webhooks/${hook.id}/deliveries/${randomId()}`,
    ]) {
      expectError(await org.owner.api.get(path), 404, "NOT_FOUND");
      expectError(await org.owner.api.post(`${path}/replay`), 404, "NOT_FOUND");
    }
    expect(expectError(await org.owner.api.get(`/v1/webhooks/${hook.id}/deliveries/nope`), 400, "VALIDATION_ERROR").details?.[0].path).toBe("deliveryId");
    expect(receiver.received).toHaveLength(0);
    expect(await db.webhookDeliveryAttempt.count({ where: { delivery_id: theirDelivery } })).toBe(1);
  });

  it("refuses a sending key (403), and a replay to a disabled webhook (409), sending nothing", async () => {
    const hook = await addWebhook(org, receiver.url);
    const delivery = (await org.owner.api.post(`/v1/webhooks/${hook.id}/test`)).body.id as string;
    receiver.received.length = 0;
    const key = await org.owner.api.post("/v1/api-keys", { name: "app", permission: "sending_access" });
    const app = client(key.body.token as string);
    expectError(await app.post(`/v1/webhooks/${hook.id}/test`), 403, "FORBIDDEN");
    expectError(await app.post(`/v1/webhooks/${hook.id}/deliveries/${delivery}/replay`), 403, "FORBIDDEN");
    expectError(await app.get(`/v1/webhooks/${hook.id}/deliveries/${delivery}`), 403, "FORBIDDEN");
    // A member (the least role) may, as with every webhook operation.
    const member = await org.addMember("member");
    expect((await member.api.get(`/v1/webhooks/${hook.id}/deliveries/${delivery}`)).status).toBe(200);

    await org.owner.api.put(`/v1/webhooks/${hook.id}/toggle`);
    expectError(await org.owner.api.post(`/v1/webhooks/${hook.id}/deliveries/${delivery}/replay`), 409, "CONFLICT");
    expect(receiver.received).toHaveLength(0);
  });

  it("limits tests and replays per webhook and per organization in each hour (429 with Retry-After)", async () => {
    const hook = await addWebhook(org, receiver.url);
    const sibling = await addWebhook(org, receiver.url);
    const ctx = ctxOf(org);
    // As if other web processes had used all but one of this webhook's allowance this hour.
    await consumeQuota(
      ctx,
      { action: `webhook_manual:${hook.id}`, limit: env.webhookManualDeliveriesPerHour, windowMs: 3_600_000, what: "" },
      env.webhookManualDeliveriesPerHour - 1,
    );
    const last = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    expect(last.status).toBe(201);
    const limited = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expectError(await org.owner.api.post(`/v1/webhooks/${hook.id}/deliveries/${last.body.id}/replay`), 429, "RATE_LIMITED");
    expect(receiver.received).toHaveLength(1);
    // Another webhook has its own allowance, until the organization's is spent.
    expect((await org.owner.api.post(`/v1/webhooks/${sibling.id}/test`)).status).toBe(201);
    const orgLimit = env.webhookManualDeliveriesPerOrganizationPerHour;
    await consumeQuota(ctx, { action: "webhook_manual", limit: orgLimit, windowMs: 3_600_000, what: "" }, orgLimit - 2);
    expectError(await org.owner.api.post(`/v1/webhooks/${sibling.id}/test`), 429, "RATE_LIMITED");
    expect(receiver.received).toHaveLength(2);
    // Another organization's allowance is its own.
    const theirs = await addWebhook(other, receiver.url);
    expect((await other.owner.api.post(`/v1/webhooks/${theirs.id}/test`)).status).toBe(201);
  });

  it("answers within its time limit when the receiver never answers", async () => {
    const slow = await startWebhookReceiver();
    try {
      const hook = await addWebhook(org, slow.url);
      slow.answer("hang", "hang");
      const tested = await testWebhook(ctxOf(org), hook.id, { timeoutMs: 500 });
      // Answered although the receiver still holds the request.
      expect(slow.received).toHaveLength(1);
      expect(tested).toMatchObject({ status: "failed", response_status: null, last_error: "No answer within 500 ms" });
      expect(tested.attempt_log[0]).toMatchObject({ trigger: "test", succeeded: false, response: null, error: "No answer within 500 ms" });
      expect(tested.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(400);
      expect(tested.attempt_log[0].request.headers["webhook-signature"]).toMatch(/^v1,/);

      const replayed = await replayWebhookDelivery(ctxOf(org), hook.id, tested.id, { timeoutMs: 500 });
      expect(slow.received).toHaveLength(2);
      expect(replayed.attempt_log.map((a) => [a.trigger, a.error])).toEqual([
        ["replay", "No answer within 500 ms"],
        ["test", "No answer within 500 ms"],
      ]);
    } finally {
      await slow.close();
    }
  });

  it("holds at most five tests or replays of an organization at once in a process, leaving other organizations alone", async () => {
    const slow = await startWebhookReceiver();
    try {
      const hook = await addWebhook(org, slow.url);
      slow.answer("hang", "hang", "hang", "hang", "hang");
      // Eight asked at the same moment: five are sent, three refused at once.
      const asked = await Promise.allSettled(Array.from({ length: 8 }, () => testWebhook(ctxOf(org), hook.id, { timeoutMs: 3_000 })));
      const refused = asked.filter((a) => a.status === "rejected");
      expect(refused).toHaveLength(3);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 5 });
      expect(slow.received).toHaveLength(5);

      slow.answer("hang", "hang", "hang", "hang", "hang");
      const held = Array.from({ length: 5 }, () => testWebhook(ctxOf(org), hook.id, { timeoutMs: 3_000 }));
      while (slow.received.length < 10) await new Promise((resolve) => setTimeout(resolve, 20));
      expectError(await org.owner.api.post(`/v1/webhooks/${hook.id}/test`), 429, "RATE_LIMITED");
      // Another organization is not held up by them.
      const theirs = await addWebhook(other, receiver.url);
      expect((await other.owner.api.post(`/v1/webhooks/${theirs.id}/test`)).body.status).toBe("succeeded");
      expect((await Promise.all(held)).map((d) => d.status)).toEqual(Array(5).fill("failed"));
      // Once they are over, the organization may again.
      expect((await org.owner.api.post(`/v1/webhooks/${hook.id}/test`)).body.status).toBe("succeeded");
    } finally {
      await slow.close();
    }
  });

  it("keeps the first 2 KB of an answer, and an answer with NUL characters", async () => {
    const hook = await addWebhook(org, receiver.url);
    receiver.answer({ status: 500, body: "x".repeat(10_000) }, { status: 400, body: Buffer.from("bad\u0000input") });
    const long = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    expect(long.body.attempt_log[0].response).toEqual({ status: 500, body: "x".repeat(2048), body_truncated: true });
    expect(long.body.last_error).toBe(`HTTP 500: ${"x".repeat(200)}`);
    const nul = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    expect(nul.body.attempt_log[0].response).toEqual({ status: 400, body: "bad\uFFFDinput", body_truncated: false });
  });

  it("keeps the newest 30 attempts of a delivery", async () => {
    const hook = await addWebhook(org, receiver.url);
    const tested = await org.owner.api.post(`/v1/webhooks/${hook.id}/test`);
    const base = Date.parse(tested.body.attempt_log[0].attempted_at);
    for (let i = 1; i <= 34; i++) {
      const attempt = {
        ok: false,
        url: receiver.url,
        requestHeaders: {},
        responseStatus: 500,
        responseBody: `#${i}`,
        responseBodyTruncated: false,
        error: "HTTP 500",
        attemptedAt: new Date(base + i * 1000),
        durationMs: 1,
      };
      await db.$executeRaw(recordAttemptSql(org.organizationId, tested.body.id, "replay", attempt));
    }
    const detail = await org.owner.api.get(`/v1/webhooks/${hook.id}/deliveries/${tested.body.id}`);
    expect(detail.body.attempt_log).toHaveLength(30);
    expect(detail.body.attempt_log[0].response.body).toBe("#34");
    expect(detail.body.attempt_log[29].response.body).toBe("#5");
    expect(await db.webhookDeliveryAttempt.count({ where: { delivery_id: tested.body.id } })).toBe(30);
  });

  it("logs every automatic attempt with the headers sent", async () => {
    const hook = await addWebhook(org, receiver.url);
    receiver.answer(502);
    const delivery = await deliveredEvent(org);
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { next_attempt_at: new Date(Date.now() - 1000) } });
    await deliverWebhooks({ organizationId: org.organizationId });
    const detail = await org.owner.api.get(`/v1/webhooks/${hook.id}/deliveries/${delivery.id}`);
    expect(detail.body).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(detail.body.attempt_log.map((a: { trigger: string; succeeded: boolean }) => [a.trigger, a.succeeded])).toEqual([
      ["automatic", true],
      ["automatic", false],
    ]);
    expect(receiver.received.map((r) => r.headers["webhook-signature"])).toEqual(
      [...detail.body.attempt_log].reverse().map((a: { request: { headers: Headers } }) => a.request.headers["webhook-signature"]),
    );
    expect(JSON.stringify(detail.body)).not.toContain(hook.secret.slice("whsec_".length));
  });
});
