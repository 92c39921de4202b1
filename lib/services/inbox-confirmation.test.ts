import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { confirmSender, describeSenderConfirmation } from "./inbox-confirmation";

const credentials = { user: "ada@ada-mail.example", pass: "smtp secret" };

/** The token of the link in a confirmation mail, read as a recipient would: from the text. */
function linkToken(text: string | undefined): string {
  const match = /\/confirm-sender\/([A-Za-z0-9_-]+)/.exec(text ?? "");
  if (!match) throw new Error(`no confirmation link in: ${text}`);
  return match[1];
}

describe("confirming an inbox's sender address over SMTP", () => {
  let org: TestOrg;
  let sink: SmtpSink;
  let inboxId: string;

  beforeAll(async () => {
    org = await createTestOrg("Ada's Bakery");
    sink = await startSmtpSink({ credentials });
    const created = await org.owner.api.post("/v1/inboxes", {
      name: "Ada",
      from_email: "ada@ada-mail.example",
      from_name: "Ada",
      smtp: { host: sink.host, port: sink.port, secure: false, username: credentials.user, password: credentials.pass },
    });
    expect(created.status).toBe(201);
    inboxId = created.body.id;
  });
  afterAll(() => sink.close());

  const inbox = async () => (await org.owner.api.get(`/v1/inboxes/${inboxId}`)).body;
  const sendConfirmation = () => org.owner.api.post(`/v1/inboxes/${inboxId}/send-confirmation`);
  const lastMail = () => sink.messages[sink.messages.length - 1];

  it("mails the link through the inbox's own server; following it verifies the inbox, once", async () => {
    expect((await inbox()).verification).toEqual({
      status: "unverified",
      method: null,
      confirmed_at: null,
      confirmation_sent_at: null,
      confirmation_expires_at: null,
    });

    const sent = await sendConfirmation();
    expect(sent.status).toBe(200);
    expect(sent.body.verification).toMatchObject({ status: "pending", confirmation_sent_at: expect.any(String), confirmation_expires_at: expect.any(String) });
    const mail = lastMail();
    expect(mail.user).toBe(credentials.user);
    expect(mail.envelopeTo).toEqual(["ada@ada-mail.example"]);
    expect(mail.parsed.from?.value[0]).toEqual({ name: "Ada", address: "ada@ada-mail.example" });
    expect(mail.parsed.subject).toBe("Confirm your sender address");
    expect(mail.parsed.text).toContain(`"Ada's Bakery"`);
    const token = linkToken(mail.parsed.text);
    // Only the hash is kept.
    const row = await db.inbox.findUniqueOrThrow({ where: { id: inboxId } });
    expect(row.sender_token_hash).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);

    // The page shows what would be confirmed, and opening it confirms nothing.
    expect(await describeSenderConfirmation(token)).toEqual({
      state: "valid",
      address: "ada@ada-mail.example",
      inboxName: "Ada",
      organizationName: "Ada's Bakery",
    });
    expect((await inbox()).verification.status).toBe("pending");

    expect(await confirmSender(token)).toEqual({ state: "confirmed", address: "ada@ada-mail.example" });
    expect((await inbox()).verification).toMatchObject({ status: "verified", method: "confirmation", confirmed_at: expect.any(String) });
    // Used: the link works no more.
    expect(await confirmSender(token)).toEqual({ state: "invalid" });
    expect(await describeSenderConfirmation(token)).toBeNull();

    // And the inbox now sends.
    const email = await org.owner.api.post("/v1/emails", { to: "customer@example.test", subject: "Fresh bread", text: "Today", inbox_id: inboxId });
    expect(email.status).toBe(201);
    const sender = createSender({ organizationId: org.organizationId, relayUrl: undefined });
    try {
      await sender.runOnce();
    } finally {
      sender.close();
    }
    expect((await db.email.findUniqueOrThrow({ where: { id: email.body.id } })).status).toBe("sent");
  });

  it("refuses an expired link, and a link sent before the address changed", async () => {
    await org.owner.api.put(`/v1/inboxes/${inboxId}`, { from_email: "orders@ada-mail.example" });
    expect((await inbox()).verification.status).toBe("unverified");
    expectError(await org.owner.api.post("/v1/emails", { to: "c@example.test", subject: "S", text: "T", inbox_id: inboxId }), 400, "INBOX_NOT_VERIFIED");

    expect((await sendConfirmation()).status).toBe(200);
    const expiring = linkToken(lastMail().parsed.text);
    expect(lastMail().envelopeTo).toEqual(["orders@ada-mail.example"]);
    // At most one a minute.
    expectError(await sendConfirmation(), 409, "CONFLICT");
    await db.inbox.update({ where: { id: inboxId }, data: { sender_token_expires_at: new Date(Date.now() - 1000) } });
    expect(await describeSenderConfirmation(expiring)).toMatchObject({ state: "expired" });
    expect(await confirmSender(expiring)).toEqual({ state: "expired" });
    expect((await inbox()).verification.status).toBe("unverified");

    await db.inbox.update({ where: { id: inboxId }, data: { sender_token_sent_at: new Date(Date.now() - 120_000) } });
    expect((await sendConfirmation()).status).toBe(200);
    const stale = linkToken(lastMail().parsed.text);
    await org.owner.api.put(`/v1/inboxes/${inboxId}`, { from_email: "ceo@ada-mail.example" });
    expect(await confirmSender(stale)).toEqual({ state: "invalid" });
    expect((await inbox()).verification.status).toBe("unverified");
    expect(await confirmSender("x".repeat(500))).toEqual({ state: "invalid" });
  });

  it("needs no link for an address at a verified domain, and sends nothing then", async () => {
    const before = sink.messages.length;
    await verifiedDomain(org.organizationId, "ada-mail.example");
    expect((await inbox()).verification).toMatchObject({ status: "verified", method: "domain" });
    expect((await sendConfirmation()).body.verification.status).toBe("verified");
    expect(sink.messages.length).toBe(before);
  });

  it("says why a confirmation could not be sent, and keeps no link", async () => {
    const created = await org.owner.api.post("/v1/inboxes", {
      name: "Wrong password",
      from_email: "bob@bob-mail.example",
      smtp: { host: sink.host, port: sink.port, secure: false, username: credentials.user, password: "wrong" },
    });
    const failed = expectError(await org.owner.api.post(`/v1/inboxes/${created.body.id}/send-confirmation`), 502, "MAIL_DELIVERY_FAILED");
    expect(failed.error).toContain("SMTP authentication failed");
    expect(await db.inbox.findUniqueOrThrow({ where: { id: created.body.id } })).toMatchObject({ sender_token_hash: null, sender_token_sent_at: null });
    // Another organization's inbox is not there.
    const other = await createTestOrg();
    expectError(await other.owner.api.post(`/v1/inboxes/${created.body.id}/send-confirmation`), 404, "NOT_FOUND");
  });
});
