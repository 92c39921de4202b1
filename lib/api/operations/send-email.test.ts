import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSender } from "@/lib/sending/sender";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { drain, sinkInbox, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

describe("POST /v1/emails", () => {
  let org: TestOrg;
  let other: TestOrg;
  let sink: SmtpSink;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    sink = await startSmtpSink();
    await verifiedDomain(org.organizationId, "acme.test");
  });
  afterAll(() => sink.close());

  const send = (body: unknown, key?: string, token = org.owner.token) =>
    request("POST", "/v1/emails", { token, body, headers: key ? { "idempotency-key": key } : {} });

  it("queues the email in a new thread, and the worker sends it through the relay", async () => {
    await db.contact.create({ data: { organization_id: org.organizationId, email: "pat@example.test", first_name: "Pat" } });
    const created = await send({
      from: "Acme Support <support@acme.test>",
      to: "pat@example.test",
      subject: "Your order {{order}}",
      html: "<p>Hi {{first_name|there}}, order <b>{{order}}</b> shipped.</p>",
      variables: { order: "A-17" },
      reply_to: "help@acme.test",
      tags: ["orders"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "queued",
      direction: "outbound",
      from_email: "support@acme.test",
      from_name: "Acme Support",
      to_email: "pat@example.test",
      reply_to: "help@acme.test",
      subject: "Your order A-17",
      html_content: "<p>Hi Pat, order <b>A-17</b> shipped.</p>",
      text_content: "Hi Pat, order A-17 shipped.",
      tags: ["orders"],
      sent_at: null,
    });
    expect(created.body.message_id).toBe(`<${created.body.id}@acme.test>`);
    const thread = await db.thread.findUniqueOrThrow({ where: { id: created.body.thread_id } });
    expect(thread).toMatchObject({ organization_id: org.organizationId, subject: "Your order A-17" });

    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    const mail = sink.messages.find((m) => m.parsed.messageId === created.body.message_id)!;
    expect(mail.envelopeTo).toEqual(["pat@example.test"]);
    expect(mail.parsed.subject).toBe("Your order A-17");
    expect(mail.parsed.text?.trim()).toBe("Hi Pat, order A-17 shipped.");
    expect(mail.parsed.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(false);
    const email = await org.owner.api.get(`/v1/emails/${created.body.id}`);
    expect(email.body).toMatchObject({ status: "sent", thread_id: created.body.thread_id });
    expect(email.body.events.map((e: { type: string }) => e.type)).toEqual(["sent"]);
  });

  it("renders a template with variables and sends through an inbox with its sender", async () => {
    const inbox = await sinkInbox(org.organizationId, sink, { from_email: "sam@inbox.test", from_name: "Sam", reply_to: "sam-replies@inbox.test" });
    const template = await db.template.create({
      data: { organization_id: org.organizationId, name: "Welcome", subject: "Welcome, {{name|friend}}", html_content: "<h1>Welcome {{name|friend}}</h1>" },
    });
    const created = await send({ to: "new@example.test", template_id: template.id, variables: { name: "Robin" }, inbox_id: inbox.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      from_email: "sam@inbox.test",
      from_name: "Sam",
      reply_to: "sam-replies@inbox.test",
      inbox_id: inbox.id,
      template_id: template.id,
      subject: "Welcome, Robin",
      html_content: "<h1>Welcome Robin</h1>",
    });
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    const mail = sink.messages.find((m) => m.parsed.messageId === created.body.message_id)!;
    expect(mail.user).toBe(inbox.smtp_username);
    expect(mail.parsed.from?.value[0]).toEqual({ name: "Sam", address: "sam@inbox.test" });
  });

  it("honours an Idempotency-Key for the same body and refuses it for another", async () => {
    const body = { from: "support@acme.test", to: "idem@example.test", subject: "Once", text: "Only once" };
    const first = await send(body, "order-42");
    const again = await send({ ...body }, "order-42");
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "idem@example.test" } })).toBe(1);

    const conflict = expectError(await send({ ...body, text: "Something else" }, "order-42"), 409, "CONFLICT");
    expect(conflict.error).toMatch(/Idempotency-Key/);
    // The key is the organization's own: another organization may use the same one.
    await verifiedDomain(other.organizationId, "other.test");
    const theirs = await send({ ...body, from: "x@other.test" }, "order-42", other.owner.token);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);

    const concurrent = await Promise.all([1, 2, 3].map(() => send({ ...body, to: "race@example.test" }, "race-key")));
    expect(new Set(concurrent.map((r) => r.body.id)).size).toBe(1);
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "race@example.test" } })).toBe(1);

    // Without a key every request sends.
    await send(body);
    await send(body);
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "idem@example.test" } })).toBe(3);
  });

  it("forgets a key after 24 hours", async () => {
    const body = { from: "support@acme.test", to: "later@example.test", subject: "Hi", text: "Hi" };
    const first = await send(body, "daily");
    await db.idempotencyKey.update({
      where: { organization_id_key: { organization_id: org.organizationId, key: "daily" } },
      data: { created_at: new Date(Date.now() - 25 * 60 * 60_000) },
    });
    const second = await send({ ...body, text: "A new day" }, "daily");
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it("validates the body and the key", async () => {
    const base = { from: "support@acme.test", to: "v@example.test", subject: "S", text: "T" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, to: "not-an-address" }, "to"],
      [{ ...base, to: undefined }, "to"],
      [{ ...base, text: undefined }, "html"],
      [{ ...base, subject: undefined }, "subject"],
      [{ ...base, from: undefined }, "from"],
      [{ ...base, from: "Name <broken>" }, "from"],
      [{ ...base, subject: "a\u0000b" }, "subject"],
      [{ ...base, tags: ["Upper"] }, "tags.0"],
      [{ ...base, template_id: "nope" }, "template_id"],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await send(body), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
    }
    const badKey = expectError(await send(base, "with space"), 400, "VALIDATION_ERROR");
    expect(badKey.details?.[0].path).toBe("Idempotency-Key");
    expectError(await send(base, "k".repeat(256)), 400, "VALIDATION_ERROR");
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "v@example.test" } })).toBe(0);
  });

  it("needs a verified domain without an inbox, and ids of the caller's organization", async () => {
    expectError(await send({ from: "me@unverified.test", to: "a@example.test", subject: "S", text: "T" }), 400, "DOMAIN_NOT_VERIFIED");
    const theirInbox = await sinkInbox(other.organizationId, sink);
    const inboxError = expectError(await send({ to: "a@example.test", subject: "S", text: "T", inbox_id: theirInbox.id }), 400, "VALIDATION_ERROR");
    expect(inboxError.details?.[0].path).toBe("inbox_id");
    const theirTemplate = await db.template.create({ data: { organization_id: other.organizationId, name: "T", subject: "S", html_content: "<p>x</p>" } });
    const templateError = expectError(await send({ from: "support@acme.test", to: "a@example.test", template_id: theirTemplate.id }), 400, "VALIDATION_ERROR");
    expect(templateError.details?.[0].path).toBe("template_id");
    expectError(await send({ from: "support@acme.test", to: "a@example.test", subject: "S", text: "T", inbox_id: randomId() }), 400, "VALIDATION_ERROR");
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "a@example.test" } })).toBe(0);
  });

  it("401 without a credential", async () => {
    expectError(await client(null).post("/v1/emails", { from: "support@acme.test", to: "a@example.test", subject: "S", text: "T" }), 401, "UNAUTHORIZED");
  });
});
