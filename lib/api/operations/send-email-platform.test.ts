import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import os from "node:os";
import { authenticate } from "mailauth";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startInboundServer } from "@/lib/feedback/inbound-server";
import { processFeedbackReports } from "@/lib/feedback/process-reports";
import { returnPathAddress } from "@/lib/feedback/verp";
import { releaseScheduledEmails } from "@/lib/sending/scheduled-emails";
import { createSender } from "@/lib/sending/sender";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg, expectError, request, type TestOrg } from "@/lib/testing/api";
import { dkimResolver } from "@/lib/testing/dkim-resolver";
import { rawDsn } from "@/lib/testing/reports";
import { drain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

// The developer platform's sending API, black-box: requests through the operations, mail through the
// worker's sender to a real SMTP sink, read back with mailparser and checked with mailauth.

let org: TestOrg;
let sink: SmtpSink;
let domain: string;
let records: { type: string; name: string; value: string }[];

beforeAll(async () => {
  org = await createTestOrg();
  sink = await startSmtpSink();
  domain = `dev-${randomUUID().slice(0, 8)}.example.com`;
  records = (await addDomain(org.organizationId, domain, { verified: true })).records;
});
afterAll(() => sink.close());

const send = (body: unknown, key?: string) => request("POST", "/v1/emails", { token: org.owner.token, body, headers: key ? { "idempotency-key": key } : {} });
const relay = () => `smtp://${sink.host}:${sink.port}`;
const ourSpoolFiles = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith(`mailplatform-attachment-${process.pid}-`));

describe("POST /v1/emails with recipients, headers and attachments", () => {
  // An odd size, so that the last base64 line of each file is a short one; random bytes do not compress.
  const pdf = randomBytes(300_001);
  const png = randomBytes(70_003);

  it.each([
    ["the relay's own thread", true],
    ["the worker's thread (nodemailer's transport)", false],
  ])("arrives as one well-formed, DKIM-signed message with cc, bcc, an inline image, a file and an X- header, through %s", async (_how, relayInThread) => {
    const tag = randomUUID().slice(0, 6);
    const bccAddress = `secret-${tag}@hidden.example.net`;
    const created = await send({
      from: `Dev Team <team@${domain}>`,
      to: [`ada-${tag}@example.net`, `bob-${tag}@example.org`],
      cc: [`carol-${tag}@example.com`],
      bcc: [bccAddress],
      reply_to: [`help@${domain}`, `support@${domain}`],
      subject: "Your invoice",
      html: '<p>Invoice attached.</p><img src="cid:logo-1" alt="logo">',
      headers: { "X-Order-Id": "A-17", "X-Campaign": "Ünïcode value" },
      attachments: [
        { filename: "invoice ü.pdf", content: pdf.toString("base64") },
        { filename: "logo.png", content: png.toString("base64"), content_type: "image/png", content_id: "logo-1" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "queued",
      to_email: `ada-${tag}@example.net`,
      to: [`ada-${tag}@example.net`, `bob-${tag}@example.org`],
      cc: [`carol-${tag}@example.com`],
      bcc: [bccAddress],
      reply_to: `help@${domain}, support@${domain}`,
      attachments: [
        { filename: "invoice ü.pdf", content_type: "application/pdf", size: pdf.length, content_id: null },
        { filename: "logo.png", content_type: "image/png", size: png.length, content_id: "logo-1" },
      ],
    });
    expect(ourSpoolFiles()).toEqual([]);

    const sender = createSender({ organizationId: org.organizationId, relayUrl: relay(), relayInThread });
    await drain(sender, org.organizationId);
    await sender.close();
    const received = sink.messages.filter((m) => m.messageId === created.body.message_id);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect([...mail.envelopeTo].sort()).toEqual([`ada-${tag}@example.net`, `bob-${tag}@example.org`, `carol-${tag}@example.com`, bccAddress].sort());

    // The bcc address is in no header, however the header is spelled.
    const headerBlock = mail.raw.subarray(0, mail.raw.indexOf("\r\n\r\n")).toString("latin1").toLowerCase();
    expect(headerBlock).not.toContain(bccAddress);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.to && "value" in mail.parsed.to ? mail.parsed.to.value.map((a) => a.address) : []).toEqual([
      `ada-${tag}@example.net`,
      `bob-${tag}@example.org`,
    ]);
    expect(mail.parsed.cc && "value" in mail.parsed.cc ? mail.parsed.cc.value.map((a) => a.address) : []).toEqual([`carol-${tag}@example.com`]);
    expect(mail.parsed.headers.get("x-order-id")).toBe("A-17");
    expect(headerBlock).toContain(`x-campaign: =?utf-8?b?${Buffer.from("Ünïcode value").toString("base64").toLowerCase()}?=`);
    // mailparser resolves the cid: reference to the inline image itself.
    expect(String(mail.parsed.html).includes(`src="data:image/png;base64,${png.toString("base64")}"`)).toBe(true);

    // mailparser finds both files byte for byte; the image is inline, in a multipart/related with the HTML.
    expect(mail.parsed.attachments).toHaveLength(2);
    const file = mail.parsed.attachments.find((a) => a.filename === "invoice ü.pdf")!;
    const logo = mail.parsed.attachments.find((a) => a.filename === "logo.png")!;
    expect(file.content.equals(pdf)).toBe(true);
    expect(file.contentDisposition).toBe("attachment");
    expect(logo.content.equals(png)).toBe(true);
    expect(logo.contentId).toBe("<logo-1>");
    expect(logo.contentDisposition).toBe("inline");
    expect(logo.related).toBe(true);

    const auth = await authenticate(mail.raw, {
      ip: "127.0.0.1",
      helo: "relay.local",
      sender: mail.envelopeFrom,
      mta: "mx.example.net",
      resolver: dkimResolver(records),
    });
    expect(auth.dkim.results[0].status.result).toBe("pass");
    expect(auth.dkim.results[0].signingDomain).toBe(domain);

    const email = await org.owner.api.get(`/v1/emails/${created.body.id}`);
    expect(email.body.status).toBe("sent");
    expect(email.body.headers).toMatchObject({ "X-Order-Id": "A-17", Cc: `carol-${tag}@example.com` });
    expect(JSON.stringify(email.body.headers)).not.toContain(bccAddress);
  });

  it("answers 413 for more than 10 MB of attachments in all, and creates nothing", async () => {
    const before = await db.email.count({ where: { organization_id: org.organizationId } });
    const half = randomBytes(5.5 * 1024 * 1024).toString("base64");
    const tooMuch = await send({
      from: `team@${domain}`,
      to: "big@example.net",
      subject: "Big",
      text: "Two files of 5.5 MB",
      attachments: [
        { filename: "a.bin", content: half },
        { filename: "b.bin", content: half },
      ],
    });
    expect(expectError(tooMuch, 413, "PAYLOAD_TOO_LARGE").error).toMatch(/10 MB/);
    expect(await db.email.count({ where: { organization_id: org.organizationId } })).toBe(before);
    expect(ourSpoolFiles()).toEqual([]);

    const atLimit = await send({
      from: `team@${domain}`,
      to: "big@example.net",
      subject: "Big",
      text: "10 MB exactly",
      attachments: [{ filename: "a.bin", content: randomBytes(10 * 1024 * 1024).toString("base64") }],
    });
    expect(atLimit.status).toBe(201);
    const parts = await db.emailAttachmentPart.findMany({ where: { email_id: atLimit.body.id }, select: { content: true } });
    expect(parts.reduce((sum, p) => sum + p.content.length, 0)).toBe(10 * 1024 * 1024);
  });

  it("refuses what could inject a header or break the message, naming the field", async () => {
    const base = { from: `team@${domain}`, to: "v@example.net", subject: "S", text: "T" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, headers: { "X-Evil": "a\r\nBcc: victim@example.com" } }, "headers.X-Evil"],
      [{ ...base, headers: { Subject: "Other" } }, "headers.Subject"],
      [{ ...base, headers: { "X-Bad Name": "v" } }, "headers.X-Bad Name"],
      [{ ...base, headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, "v"])) }, "headers"],
      [{ ...base, headers: { "X-A": "1", "x-a": "2" } }, "headers"],
      [{ ...base, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.net`) }, "to"],
      [{ ...base, to: [] }, "to"],
      [{ ...base, cc: ["not an address"] }, "cc.0"],
      [{ ...base, attachments: [{ filename: "a.txt", content: "not base64!" }] }, "attachments.0.content"],
      [{ ...base, attachments: [{ filename: "a.txt", content: "aGk=", content_type: "text/plain\r\nX-Injected: 1" }] }, "attachments.0.content_type"],
      [{ ...base, attachments: [{ filename: "a\r\nb.txt", content: "aGk=" }] }, "attachments.0.filename"],
      [{ ...base, attachments: [{ filename: "a.png", content: "aGk=", content_id: "<logo>" }] }, "attachments.0.content_id"],
      [{ ...base, scheduled_at: new Date(Date.now() + 31 * 24 * 3600_000).toISOString() }, "scheduled_at"],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await send(body), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
    }
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "v@example.net" } })).toBe(0);
    expect(ourSpoolFiles()).toEqual([]);
  });

  it("refuses a suppressed recipient in cc or bcc as in to, naming each", async () => {
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "gone@example.net", reason: "hard_bounce" } });
    const refused = expectError(
      await send({ from: `team@${domain}`, to: ["ok@example.net"], cc: ["x@example.net"], bcc: ["Gone@example.net"], subject: "S", text: "T" }),
      422,
      "RECIPIENT_SUPPRESSED",
    );
    expect(refused.details?.map((d) => d.path)).toEqual(["bcc.0"]);
  });
});

describe("delivery reports of an email to several", () => {
  it("a hard bounce of a cc recipient neither bounces the email nor suppresses its first recipient", async () => {
    const listener = await startInboundServer({ port: 0, host: "127.0.0.1" });
    try {
      const tag = randomUUID().slice(0, 6);
      const created = await send({ from: `team@${domain}`, to: [`first-${tag}@example.net`], cc: [`dead-${tag}@example.net`], subject: "S", text: "T" });
      await db.email.update({ where: { id: created.body.id }, data: { status: "sent", sent_at: new Date() } });
      const to = returnPathAddress(created.body.id, `bounces.${domain}`);
      const transport = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
      await transport.sendMail({
        envelope: { from: "", to },
        raw: rawDsn({ to, action: "failed", status: "5.1.1", finalRecipient: `dead-${tag}@example.net` }),
      });
      transport.close();
      while ((await processFeedbackReports()) > 0);
      expect(await db.email.findUniqueOrThrow({ where: { id: created.body.id } })).toMatchObject({ status: "sent", bounced_at: null });
      expect(await db.suppression.count({ where: { organization_id: org.organizationId, email: `first-${tag}@example.net` } })).toBe(0);
    } finally {
      await listener.close();
    }
  });
});

describe("scheduled emails", () => {
  it("sends a scheduled email at its time (a clock the test holds) and a cancelled one never", async () => {
    const tag = randomUUID().slice(0, 6);
    const at = new Date(Date.now() + 10 * 60_000);
    const later = await send({ from: `team@${domain}`, to: `later-${tag}@example.net`, subject: "Later", text: "At ten", scheduled_at: at.toISOString() });
    const never = await send({ from: `team@${domain}`, to: `never-${tag}@example.net`, subject: "Never", text: "Cancelled", scheduled_at: at.toISOString() });
    expect(later.body).toMatchObject({ status: "scheduled", scheduled_at: at.toISOString() });
    const cancelled = await org.owner.api.post(`/v1/emails/${never.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expectError(await org.owner.api.post(`/v1/emails/${never.body.id}/cancel`), 400, "EMAIL_NOT_CANCELLABLE");

    const sender = createSender({ organizationId: org.organizationId, relayUrl: relay() });
    // Five minutes before its time: nothing is released, nothing sent.
    expect(await releaseScheduledEmails({ now: new Date(at.getTime() - 5 * 60_000), organizationId: org.organizationId })).toBe(0);
    await drain(sender, org.organizationId);
    expect(sink.messages.some((m) => m.envelopeTo.includes(`later-${tag}@example.net`))).toBe(false);
    // Its time has come: released, then sent; the cancelled one stays cancelled.
    expect(await releaseScheduledEmails({ now: new Date(at.getTime() + 1000), organizationId: org.organizationId })).toBe(1);
    await drain(sender, org.organizationId);
    await sender.close();
    expect(sink.messages.filter((m) => m.envelopeTo.includes(`later-${tag}@example.net`))).toHaveLength(1);
    expect(sink.messages.some((m) => m.envelopeTo.includes(`never-${tag}@example.net`))).toBe(false);
    expect((await org.owner.api.get(`/v1/emails/${never.body.id}`)).body.status).toBe("cancelled");

    // Sent already: not cancellable, with a code that says so and the status.
    const sent = expectError(await org.owner.api.post(`/v1/emails/${later.body.id}/cancel`), 400, "EMAIL_NOT_CANCELLABLE");
    expect(sent.details).toEqual({ status: "sent" });
    expectError(await org.owner.api.post(`/v1/emails/${randomUUID()}/cancel`), 404, "NOT_FOUND");
  });
});

describe("POST /v1/emails/batch", () => {
  const batch = (tag: string) =>
    Array.from({ length: 100 }, (_, i) => ({ from: `team@${domain}`, to: `batch-${tag}-${i}@example.net`, subject: `Batch ${i}`, text: `Hello ${i}` }));
  const post = (body: unknown, key?: string) =>
    request("POST", "/v1/emails/batch", { token: org.owner.token, body, headers: key ? { "idempotency-key": key } : {} });

  it("queues 100 emails with one request, answers their ids in order, and a replay with the same key creates nothing", async () => {
    const tag = randomUUID().slice(0, 6);
    const first = await post(batch(tag), `batch-${tag}`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(100);
    const rows = await db.email.findMany({ where: { organization_id: org.organizationId, id: { in: first.body.data.map((d: { id: string }) => d.id) } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    first.body.data.forEach((d: { id: string }, i: number) =>
      expect(byId.get(d.id)).toMatchObject({ to_email: `batch-${tag}-${i}@example.net`, status: "queued" }),
    );
    const count = () => db.email.count({ where: { organization_id: org.organizationId, to_email: { startsWith: `batch-${tag}-` } } });
    expect(await count()).toBe(100);

    const replay = await post(batch(tag), `batch-${tag}`);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await count()).toBe(100);
    expectError(await post(batch(tag).slice(1), `batch-${tag}`), 409, "CONFLICT");
  });

  it("validates the batch whole, naming the index, and creates nothing", async () => {
    const tag = randomUUID().slice(0, 6);
    const emails: Record<string, unknown>[] = batch(tag);
    emails[37] = { ...emails[37], to: "not-an-address" };
    emails[42] = { ...emails[42], attachments: [{ filename: "a.txt", content: "aGk=" }] };
    const error = expectError(await post(emails), 400, "VALIDATION_ERROR");
    expect(error.details?.map((d) => d.path)).toEqual(expect.arrayContaining(["37.to", "42.attachments"]));
    expectError(await post([]), 400, "VALIDATION_ERROR");
    expectError(await post(batch(tag).concat(batch(tag)[0])), 400, "VALIDATION_ERROR");
    const unverified = batch(tag);
    unverified[5] = { ...unverified[5], from: "x@unverified.example" };
    expect(expectError(await post(unverified), 400, "DOMAIN_NOT_VERIFIED").details).toEqual([expect.objectContaining({ path: "5.from" })]);
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: { startsWith: `batch-${tag}-` } } })).toBe(0);
  });
});
