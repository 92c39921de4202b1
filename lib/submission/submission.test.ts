import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { authenticate } from "mailauth";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSender } from "@/lib/sending/sender";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dkimResolver } from "@/lib/testing/dkim-resolver";
import { drain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startSubmissionServer, SUBMISSION_MAX_BYTES, type SubmissionServer } from "./submission-server";

// SMTP submission, black-box: a real client (nodemailer) submits to the listener with an API key,
// the worker's sender delivers to a real sink, and the sink's message is checked as a receiver would.

let org: TestOrg;
let sink: SmtpSink;
let server: SubmissionServer;
let domain: string;
let records: { type: string; name: string; value: string }[];

beforeAll(async () => {
  org = await createTestOrg();
  sink = await startSmtpSink();
  domain = `smtp-${randomUUID().slice(0, 8)}.example.com`;
  records = (await addDomain(org.organizationId, domain, { verified: true })).records;
  server = await startSubmissionServer({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

function submit(message: Mail.Options, auth: { user: string; pass: string } | null, port = server.port, extra: object = {}) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, auth: auth ?? undefined, ...extra });
  return transport.sendMail(message).finally(() => transport.close());
}

const key = () => ({ user: "apikey", pass: org.owner.token });

describe("SMTP submission", () => {
  it("makes each message an email as POST /v1/emails does: listed, sent DKIM-signed to the sink, bcc in no header, files intact", async () => {
    const tag = randomUUID().slice(0, 6);
    const file = randomBytes(123_457);
    const logo = randomBytes(4_321);
    const info = await submit(
      {
        from: `"App" <app@${domain}>`,
        to: [`one-${tag}@example.net`, `two-${tag}@example.org`],
        cc: `three-${tag}@example.com`,
        bcc: `hidden-${tag}@example.net`,
        subject: "Submitted over SMTP",
        text: "Plain text",
        html: '<p>HTML <img src="cid:logo@app"></p>',
        headers: { "X-App-Ref": "r-42" },
        attachments: [
          { filename: "report.bin", content: file, contentType: "application/octet-stream" },
          { filename: "logo.png", content: logo, contentType: "image/png", cid: "logo@app" },
        ],
      },
      key(),
    );
    const id = /Queued as ([0-9a-f-]{36})/.exec(info.response)?.[1];
    expect(id).toBeDefined();

    const listed = await org.owner.api.get(`/v1/emails?email_id=${id}`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      status: "queued",
      from_email: `app@${domain}`,
      from_name: "App",
      to: [`one-${tag}@example.net`, `two-${tag}@example.org`],
      cc: [`three-${tag}@example.com`],
      bcc: [`hidden-${tag}@example.net`],
      subject: "Submitted over SMTP",
    });
    // In the order of the message's parts (nodemailer puts the inline image beside the HTML, first).
    expect(listed.body.data[0].attachments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ filename: "report.bin", size: file.length, content_id: null }),
        expect.objectContaining({ filename: "logo.png", size: logo.length, content_id: "logo@app", content_type: "image/png" }),
      ]),
    );

    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    await drain(sender, org.organizationId);
    await sender.close();
    const mail = sink.messages.find((m) => m.messageId === listed.body.data[0].message_id)!;
    expect(mail).toBeDefined();
    expect([...mail.envelopeTo].sort()).toEqual([`hidden-${tag}@example.net`, `one-${tag}@example.net`, `three-${tag}@example.com`, `two-${tag}@example.org`]);
    expect(mail.raw.subarray(0, mail.raw.indexOf("\r\n\r\n")).toString("latin1")).not.toContain(`hidden-${tag}`);
    expect(mail.parsed.headers.get("x-app-ref")).toBe("r-42");
    expect(mail.parsed.attachments.find((a) => a.filename === "report.bin")!.content.equals(file)).toBe(true);
    expect(mail.parsed.attachments.find((a) => a.filename === "logo.png")!.content.equals(logo)).toBe(true);
    const auth = await authenticate(mail.raw, {
      ip: "127.0.0.1",
      helo: "relay.local",
      sender: mail.envelopeFrom,
      mta: "mx.example.net",
      resolver: dkimResolver(records),
    });
    expect(auth.dkim.results[0].status.result).toBe("pass");
    expect(auth.dkim.results[0].signingDomain).toBe(domain);
  });

  it("refuses a wrong, revoked or foreign key at AUTH with 535, and mail without AUTH", async () => {
    const message = { from: `app@${domain}`, to: "x@example.net", subject: "S", text: "T" };
    await expect(submit(message, { user: "apikey", pass: "not-a-key" })).rejects.toMatchObject({ responseCode: 535 });
    await expect(submit(message, { user: "someone", pass: org.owner.token })).rejects.toMatchObject({ responseCode: 535 });
    const revoked = await org.owner.api.post("/v1/api-keys", { name: "Old" });
    await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`);
    await expect(submit(message, { user: "apikey", pass: revoked.body.token })).rejects.toMatchObject({ responseCode: 535 });
    await expect(submit(message, null)).rejects.toMatchObject({ responseCode: 530 });
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: "x@example.net" } })).toBe(0);
  });

  it("applies a sending key's domain and suppressions, and answers the API's refusals", async () => {
    const tag = randomUUID().slice(0, 6);
    const other = `else-${tag}.example.com`;
    await addDomain(org.organizationId, other, { verified: true });
    const ours = (await db.domain.findFirstOrThrow({ where: { organization_id: org.organizationId, name: domain } })).id;
    const scoped = await org.owner.api.post("/v1/api-keys", { name: "App", permission: "sending_access", domain_id: ours });
    const scopedAuth = { user: "apikey", pass: scoped.body.token };
    await expect(submit({ from: `app@${other}`, to: "y@example.net", subject: "S", text: "T" }, scopedAuth)).rejects.toMatchObject({ responseCode: 550 });
    await expect(submit({ from: "app@unverified.example", to: "y@example.net", subject: "S", text: "T" }, key())).rejects.toMatchObject({ responseCode: 550 });

    // A suppressed recipient refuses the message, naming it, as POST /v1/emails answers 422.
    await db.suppression.create({ data: { organization_id: org.organizationId, email: `gone-${tag}@example.net`, reason: "complaint" } });
    const refused = submit({ from: `app@${domain}`, to: [`ok-${tag}@example.net`], bcc: `gone-${tag}@example.net`, subject: "S", text: "T" }, scopedAuth);
    await expect(refused).rejects.toMatchObject({ responseCode: 550 });
    await expect(refused).rejects.toThrow(/gone-.*suppressed/);
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: `ok-${tag}@example.net` } })).toBe(0);
    await submit({ from: `app@${domain}`, to: [`ok-${tag}@example.net`], subject: "S", text: "T" }, scopedAuth);
    const email = await db.email.findFirstOrThrow({ where: { organization_id: org.organizationId, to_email: `ok-${tag}@example.net` } });
    expect(email.api_key_id).toBe(scoped.body.id);
  });

  it("takes a repeated Message-ID once, and announces its size limit", async () => {
    const tag = randomUUID().slice(0, 6);
    const message = { from: `app@${domain}`, to: `once-${tag}@example.net`, subject: "Once", text: "T", messageId: `<${tag}@client.example>` };
    const first = await submit(message, key());
    const again = await submit(message, key());
    expect(again.response).toBe(first.response);
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: `once-${tag}@example.net` } })).toBe(1);

    const big = randomBytes(11 * 1024 * 1024);
    await expect(
      submit({ from: `app@${domain}`, to: `big-${tag}@example.net`, subject: "Big", text: "T", attachments: [{ filename: "big.bin", content: big }] }, key()),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect(await db.email.count({ where: { organization_id: org.organizationId, to_email: `big-${tag}@example.net` } })).toBe(0);
    expect(SUBMISSION_MAX_BYTES).toBeGreaterThan((10 * 1024 * 1024 * 4) / 3);
  });
});

describe("SMTP submission under load", () => {
  it("writes the messages that arrive together in one go, each answered for itself: a refused one alone, a repeated Message-ID once", async () => {
    const tag = randomUUID().slice(0, 6);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: server.port, pool: true, maxConnections: 8, maxMessages: Infinity, auth: key() });
    const message = (i: number) => ({
      from: `app@${domain}`,
      to: `load-${tag}-${i}@example.net`,
      subject: `Load ${i}`,
      text: "T",
      messageId: `<${tag}-${i}@client.example>`,
    });
    try {
      const results = await Promise.allSettled([
        ...Array.from({ length: 30 }, (_, i) => transport.sendMail(message(i))),
        transport.sendMail({ ...message(99), from: "app@unverified.example" }),
        transport.sendMail(message(7)),
        transport.sendMail(message(7)),
      ]);
      expect(results.slice(0, 30).every((r) => r.status === "fulfilled")).toBe(true);
      expect(results[30]).toMatchObject({ status: "rejected", reason: { responseCode: 550 } });
      expect(results.slice(31).every((r) => r.status === "fulfilled")).toBe(true);
    } finally {
      transport.close();
    }
    const emails = await db.email.findMany({
      where: { organization_id: org.organizationId, to_email: { startsWith: `load-${tag}-` } },
      select: { to_email: true, idempotency_key: true },
    });
    expect(emails).toHaveLength(30);
    expect(new Set(emails.map((e) => e.to_email)).size).toBe(30);
    expect(emails.find((e) => e.to_email === `load-${tag}-7@example.net`)?.idempotency_key).toBe(`smtp:<${tag}-7@client.example>`);
  });
});

describe("SMTP submission over the network", () => {
  let dir: string;
  let tlsServer: SubmissionServer;
  let plainServer: SubmissionServer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "submission-tls-"));
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "1", "-subj", "/CN=localhost"],
      {
        stdio: "ignore",
      },
    );
    const tls = { key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) };
    // The clients of these two listeners count as other hosts, as clients on the network would.
    tlsServer = await startSubmissionServer({ port: 0, host: "127.0.0.1", tls, trustedClient: () => false });
    plainServer = await startSubmissionServer({ port: 0, host: "127.0.0.1", trustedClient: () => false });
  });
  afterAll(async () => {
    await tlsServer?.close();
    await plainServer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const message = () => ({ from: `app@${domain}`, to: `net-${randomUUID().slice(0, 6)}@example.net`, subject: "S", text: "T" });

  it("with a certificate, takes AUTH only after STARTTLS", async () => {
    await expect(submit(message(), key(), tlsServer.port, { ignoreTLS: true })).rejects.toMatchObject({ responseCode: 538 });
    const info = await submit(message(), key(), tlsServer.port, { requireTLS: true, tls: { rejectUnauthorized: false } });
    expect(info.response).toMatch(/Queued as/);
  });

  it("without one, answers other hosts 554 before they can send a credential", async () => {
    await expect(submit(message(), key(), plainServer.port)).rejects.toMatchObject({ responseCode: 554 });
  });
});
