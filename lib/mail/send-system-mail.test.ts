import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// lib/env reads SMTP_URL once, on first import: it is cleared before anything loads it, so the
// capture is tested even where the environment names a relay.
const previousSmtpUrl = process.env.SMTP_URL;
delete process.env.SMTP_URL;
const { db } = await import("@/lib/db");
const { env } = await import("@/lib/env");
const { createTestOrg } = await import("@/lib/testing/api");
const { invitationTokenOf, readCapturedMail } = await import("./captured-mail");
const { sendSystemMail } = await import("./send-system-mail");

describe("system mail without SMTP_URL", () => {
  beforeAll(() => expect(env.smtpUrl).toBeUndefined());
  afterAll(() => {
    if (previousSmtpUrl !== undefined) process.env.SMTP_URL = previousSmtpUrl;
  });

  it("writes the message as an .eml file named with the time and the recipient", async () => {
    const to = `dev-${randomUUID()}@example.test`;
    const file = await sendSystemMail({ to, subject: "Hello ünïcode", html: '<p>Hi <a href="https://x.test/a">there</a></p>', text: "Hi there" });
    expect(path.dirname(file)).toBe(path.join(env.dataDir, "mail"));
    expect(path.basename(file)).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z-${to.replace(/[.+]/g, "\\$&")}-[0-9a-f]{6}\\.eml$`));
    const parsed = await simpleParser(await readFile(file));
    const [, fromName, fromAddress] = /^\s*"?(.*?)"?\s*<([^>]+)>\s*$/.exec(env.mailFrom) ?? [];
    expect(parsed.from?.value).toEqual([{ name: fromName, address: fromAddress }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : "").toBe(to);
    expect(parsed.subject).toBe("Hello ünïcode");
    expect(parsed.text?.trim()).toBe("Hi there");
    expect(parsed.html).toContain('href="https://x.test/a"');
  });

  it("captures the invitation so its link can be followed", async () => {
    const org = await createTestOrg("Captured Co");
    const invitee = await createTestOrg();
    expect((await org.owner.api.post("/v1/invitations", { email: invitee.owner.email, role: "admin" })).status).toBe(201);
    const [mail] = await readCapturedMail(invitee.owner.email);
    expect(mail.subject).toBe("You have been invited to join a team");
    expect(mail.text).toContain("Captured Co");
    const accepted = await invitee.owner.api.post(`/v1/invitations/${invitationTokenOf(mail)}/accept`);
    expect(accepted.body).toEqual({ success: true, organization_id: org.organizationId, role: "admin" });
    expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: invitee.owner.userId, role: "admin" } })).toBe(1);
  });
});
