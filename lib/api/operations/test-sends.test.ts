import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { testSendQuota } from "@/lib/services/test-sends";
import { consumeQuota } from "@/lib/services/usage-windows";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

const doc = {
  type: "doc",
  content: [
    {
      type: "heading",
      attrs: { level: 1 },
      content: [
        { type: "text", text: "Hello " },
        { type: "variable", attrs: { name: "first_name", fallback: "there" } },
      ],
    },
    { type: "paragraph", content: [{ type: "text", text: "Read the news", marks: [{ type: "link", attrs: { href: "https://example.com/news" } }] }] },
    { type: "button", attrs: { label: "Shop now", href: "https://example.com/shop" } },
    { type: "footer" },
  ],
};

describe("test sends", () => {
  let org: TestOrg;
  let other: TestOrg;
  let sink: SmtpSink;
  let broadcastId: string;
  let contactId: string;

  const snapshot = async (organizationId: string) => ({
    emails: await db.email.count({ where: { organization_id: organizationId } }),
    threads: await db.thread.count({ where: { organization_id: organizationId } }),
    events: await db.event.count({ where: { organization_id: organizationId } }),
    broadcast: await db.broadcast.findUniqueOrThrow({
      where: { id: broadcastId },
      select: { status: true, total_recipients: true, sent_count: true, updated_at: true },
    }),
  });

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    sink = await startSmtpSink();
    const inbox = await sinkInbox(org.organizationId, sink, { from_name: "Ada", from_email: "ada@acme.test" });
    const { segmentId, contacts } = await seedSegment(org.organizationId, [{ email: "pat@example.test", first_name: "Pat" }]);
    contactId = contacts[0].id;
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Launch",
      subject: "News for {{first_name|you}}",
      preview_text: "Inside: a discount",
      inbox_id: inbox.id,
      segment_id: segmentId,
      content_json: doc,
    });
    expect(created.status).toBe(201);
    broadcastId = created.body.id;
  });
  afterAll(() => sink.close());

  it("sends the broadcast as a contact, [Test] first, from its inbox, and records nothing", async () => {
    const before = await snapshot(org.organizationId);
    const result = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/test`, {
      emails: ["reviewer@example.test", "boss@example.test"],
      contact_id: contactId,
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      subject: "[Test] News for Pat",
      from: "Ada <ada@acme.test>",
      contact_id: contactId,
      remaining_this_hour: expect.any(Number),
    });
    expect(result.body.sent.map((s: { email: string }) => s.email)).toEqual(["reviewer@example.test", "boss@example.test"]);
    const mails = await sink.waitFor(2);
    const mail = mails.find((m) => m.envelopeTo[0] === "reviewer@example.test")!;
    expect(mail.parsed.subject).toBe("[Test] News for Pat");
    expect(mail.parsed.from?.value[0]).toMatchObject({ address: "ada@acme.test", name: "Ada" });
    expect(mail.parsed.html).toMatch(/<h1[^>]*>Hello Pat<\/h1>/);
    expect(mail.parsed.html).toContain("Inside: a discount");
    expect(mail.parsed.html).toContain('href="https://example.com/news"');
    expect(mail.parsed.html).not.toContain("{{");
    expect(mail.parsed.text).toContain("Hello Pat");
    expect(mail.parsed.text).toContain("Shop now (https://example.com/shop)");
    expect(mail.parsed.text).toMatch(/Unsubscribe \(http:\/\/[^)]+\/u\/[\w-]+\)/);
    expect(await snapshot(org.organizationId)).toEqual(before);
  });

  it("fills every placeholder with its fallback without a contact", async () => {
    const count = sink.messages.length;
    const result = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/test`, { emails: ["fallback@example.test"] });
    expect(result.status).toBe(200);
    const [mail] = (await sink.waitFor(count + 1)).slice(count);
    expect(mail.parsed.subject).toBe("[Test] News for you");
    expect(mail.parsed.html).toMatch(/<h1[^>]*>Hello there<\/h1>/);
  });

  it("adds the broadcast's UTM parameters to the links of both parts, as its real send would, without tracking them", async () => {
    const utm = { source: "newsletter", campaign: "launch" };
    expect((await org.owner.api.put(`/v1/broadcasts/${broadcastId}`, { utm })).status).toBe(200);
    const count = sink.messages.length;
    expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/test`, { emails: ["utm@example.test"] })).status).toBe(200);
    const [mail] = (await sink.waitFor(count + 1)).slice(count);
    expect(mail.parsed.html).toContain('href="https://example.com/news?utm_source=newsletter&amp;utm_campaign=launch"');
    expect(mail.parsed.html).not.toMatch(/\/t\/[co]\//);
    expect(mail.parsed.text).toContain("Shop now (https://example.com/shop?utm_source=newsletter&utm_campaign=launch)");
    // The unsubscribe link is the platform's own page: no parameters.
    expect(mail.parsed.text).toMatch(/Unsubscribe \(http:\/\/[^)?]+\/u\/[\w-]+\)/);
    expect((await org.owner.api.put(`/v1/broadcasts/${broadcastId}`, { utm: null })).status).toBe(200);
  });

  it("sends a template the same way", async () => {
    const inbox = await sinkInbox(org.organizationId, sink);
    const template = await org.owner.api.post("/v1/templates", {
      name: "T",
      subject: "Template for {{first_name|you}}",
      inbox_id: inbox.id,
      content_json: doc,
    });
    expect(template.status).toBe(201);
    const count = sink.messages.length;
    const result = await org.owner.api.post(`/v1/templates/${template.body.id}/test`, { emails: ["t@example.test"], contact_id: contactId });
    expect(result.status).toBe(200);
    const [mail] = (await sink.waitFor(count + 1)).slice(count);
    expect(mail.parsed.subject).toBe("[Test] Template for Pat");
    expect(mail.parsed.html).toMatch(/Hello Pat/);
    expectError(await org.owner.api.post(`/v1/templates/${randomId()}/test`, { emails: ["t@example.test"] }), 404, "NOT_FOUND");
  });

  it("refuses 0 or 6 addresses, bad addresses and another organization's contact or broadcast", async () => {
    const url = `/v1/broadcasts/${broadcastId}/test`;
    expectError(await org.owner.api.post(url, { emails: [] }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post(url, { emails: Array.from({ length: 6 }, (_, i) => `r${i}@example.test`) }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post(url, { emails: ["not an address"] }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post(url, {}), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post(url, { emails: ["a@example.test"], contact_id: "nope" }), 400, "VALIDATION_ERROR");
    const foreign = await seedSegment(other.organizationId, [{ email: "x@example.test" }]);
    const refused = await org.owner.api.post(url, { emails: ["a@example.test"], contact_id: foreign.contacts[0].id });
    expectError(refused, 400, "VALIDATION_ERROR");
    expect(refused.body.details).toEqual([{ path: "contact_id", message: "no such contact in this organization" }]);
    expectError(await other.owner.api.post(url, { emails: ["a@example.test"] }), 404, "NOT_FOUND");
  });

  it("sends only through a verified inbox, as a real send would", async () => {
    const inbox = await sinkInbox(org.organizationId, sink, { from_email: "new@elsewhere.test" });
    const created = await org.owner.api.post("/v1/broadcasts", { name: "Unverified", subject: "S", inbox_id: inbox.id, html_content: "<p>Hi</p>" });
    expect(created.status).toBe(201);
    // Its proof withdrawn since (the address changed, say).
    await db.inbox.update({ where: { id: inbox.id }, data: { sender_confirmed_at: null } });
    const count = sink.messages.length;
    expectError(await org.owner.api.post(`/v1/broadcasts/${created.body.id}/test`, { emails: ["a@example.test"] }), 400, "INBOX_NOT_VERIFIED");
    expect(sink.messages.length).toBe(count);
  });

  it("holds a relay sender to a verified domain", async () => {
    const created = await org.owner.api.post("/v1/broadcasts", { name: "Relay", subject: "S", from_email: "me@unverified.test", html_content: "<p>Hi</p>" });
    expectError(await org.owner.api.post(`/v1/broadcasts/${created.body.id}/test`, { emails: ["a@example.test"] }), 400, "DOMAIN_NOT_VERIFIED");
  });

  it("answers 429 with Retry-After past the organization's hourly allowance, shared through the database", async () => {
    const fresh = await createTestOrg();
    const sinkInboxRow = await sinkInbox(fresh.organizationId, sink);
    const b = await fresh.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", inbox_id: sinkInboxRow.id, html_content: "<p>Hi</p>" });
    const ctx = { organizationId: fresh.organizationId, userId: fresh.owner.userId, userEmail: fresh.owner.email, apiKeyId: null, role: "owner" as const };
    const quota = testSendQuota();
    // As if other web processes had sent all but two this hour.
    await consumeQuota(ctx, quota, quota.limit - 2);
    const count = sink.messages.length;
    const ok = await fresh.owner.api.post(`/v1/broadcasts/${b.body.id}/test`, { emails: ["a@example.test", "b@example.test"] });
    expect(ok.status).toBe(200);
    expect(ok.body.remaining_this_hour).toBe(0);
    await sink.waitFor(count + 2);
    const limited = await fresh.owner.api.post(`/v1/broadcasts/${b.body.id}/test`, { emails: ["c@example.test"] });
    expectError(limited, 429, "RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(limited.body.details).toMatchObject({ limit: quota.limit, retry_after_seconds: retryAfter });
    // Another organization's allowance is its own.
    expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/test`, { emails: ["d@example.test"] })).status).toBe(200);
    expect(sink.messages.some((m) => m.envelopeTo.includes("c@example.test"))).toBe(false);
  });
});
