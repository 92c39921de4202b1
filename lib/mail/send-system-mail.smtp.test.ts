import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// lib/env reads SMTP_URL once, when first imported: the sink must be listening and the variable
// set before anything that imports it is loaded, hence the dynamic imports below.
const received: { envelopeTo: string[]; mail: ParsedMail }[] = [];
const REJECTED = /^rejected-/;

const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (REJECTED.test(address.address)) return callback(new Error("mailbox unavailable"));
    callback();
  },
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
        callback();
      })
      .catch(callback);
  },
});

const previousSmtpUrl = process.env.SMTP_URL;
let modules: {
  api: typeof import("@/lib/testing/api");
  db: (typeof import("@/lib/db"))["db"];
  env: (typeof import("@/lib/env"))["env"];
  mail: typeof import("./captured-mail");
};

beforeAll(async () => {
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  modules = {
    api: await import("@/lib/testing/api"),
    db: (await import("@/lib/db")).db,
    env: (await import("@/lib/env")).env,
    mail: await import("./captured-mail"),
  };
});

afterAll(async () => {
  await new Promise<void>((resolve) => sink.close(resolve));
  if (previousSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = previousSmtpUrl;
});

const waitForMailTo = async (email: string) => {
  for (let i = 0; i < 100; i++) {
    const found = received.find((r) => r.envelopeTo.includes(email));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no message for ${email}`);
};

describe("system mail over SMTP", () => {
  it("delivers the invitation to the SMTP server, and its link accepts the invitation", async () => {
    const { api, db, env, mail } = modules;
    expect(env.smtpUrl).toBe(process.env.SMTP_URL);
    const org = await api.createTestOrg("Relay Co");
    const invitee = await api.createTestOrg();
    const created = await org.owner.api.post("/v1/invitations", { email: invitee.owner.email, role: "member" });
    expect(created.status).toBe(201);

    const { mail: message } = await waitForMailTo(invitee.owner.email);
    expect(message.to && !Array.isArray(message.to) ? message.to.value.map((a) => a.address) : []).toEqual([invitee.owner.email]);
    const [, fromName, fromAddress] = /^\s*"?(.*?)"?\s*<([^>]+)>\s*$/.exec(env.mailFrom) ?? [];
    expect(message.from?.value).toEqual([{ name: fromName, address: fromAddress }]);
    expect(message.subject).toBe("You have been invited to join a team");
    expect(message.text).toContain("Owner Person (");
    expect(message.text).toContain("Relay Co");
    const token = mail.invitationTokenOf(message);
    expect(message.text).toContain(`${env.appUrl}/invitations/${token}`);
    expect(message.html).toContain(`${env.appUrl}/invitations/${token}`);
    // Nothing was captured to disk when SMTP is configured.
    expect(await mail.readCapturedMail(invitee.owner.email)).toHaveLength(0);

    const accepted = await invitee.owner.api.post(`/v1/invitations/${token}/accept`);
    expect(accepted.body).toEqual({ success: true, organization_id: org.organizationId, role: "member" });
    expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: invitee.owner.userId } })).toBe(1);
  });

  it("answers 502 MAIL_DELIVERY_FAILED and keeps no invitation when the server refuses the message", async () => {
    const { api, db } = modules;
    const org = await api.createTestOrg();
    const email = `rejected-${randomUUID()}@example.test`;
    api.expectError(await org.owner.api.post("/v1/invitations", { email, role: "member" }), 502, "MAIL_DELIVERY_FAILED");
    expect(await db.invitation.count({ where: { email } })).toBe(0);
  });
});
