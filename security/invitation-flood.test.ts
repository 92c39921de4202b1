import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";

// Issue 8, item 8: a fresh account put phishing text in its names and had the platform's own
// sender mail one victim 26 times in seconds (unlimited resends). lib/env reads the daily cap
// once, so it is set before anything imports it.
process.env.INVITATIONS_PER_DAY = "8";
process.env.INVITATION_RESENDS_PER_DAY = "3";
const { db } = await import("@/lib/db");
const { readCapturedMail } = await import("@/lib/mail/captured-mail");
const { createTestOrg, expectError } = await import("@/lib/testing/api");

const PHISHING = "URGENT: your account is suspended. Verify now at http://evil.test/login or lose access\r\nBcc: everyone@example.test";

describe("invitation flood", () => {
  it("allows 3 resends of an invitation a day, then answers 429 with Retry-After and a clear message", async () => {
    const org = await createTestOrg();
    const victim = `victim-${randomUUID()}@example.test`;
    const created = await org.owner.api.post("/v1/invitations", { email: victim, role: "member" });
    expect(created.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await org.owner.api.post(`/v1/invitations/${created.body.id}/resend`)).status).toBe(200);
    const refused = await org.owner.api.post(`/v1/invitations/${created.body.id}/resend`);
    expect(expectError(refused, 429, "RATE_LIMITED").error).toMatch(/already resent 3 times today/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(await readCapturedMail(victim)).toHaveLength(4);
  });

  it("caps the invitations an organization sends in a day, new and resent together", async () => {
    const org = await createTestOrg();
    const first = await org.owner.api.post("/v1/invitations", { email: `a-${randomUUID()}@example.test`, role: "member" });
    expect((await org.owner.api.post(`/v1/invitations/${first.body.id}/resend`)).status).toBe(200);
    for (let i = 0; i < 6; i++)
      expect((await org.owner.api.post("/v1/invitations", { email: `b${i}-${randomUUID()}@example.test`, role: "member" })).status).toBe(201);
    const extra = `over-${randomUUID()}@example.test`;
    const refused = await org.owner.api.post("/v1/invitations", { email: extra, role: "member" });
    expect(expectError(refused, 429, "RATE_LIMITED").error).toMatch(/sent 8 invitations in the last 24 hours/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expectError(await org.owner.api.post(`/v1/invitations/${first.body.id}/resend`), 429, "RATE_LIMITED");
    expect(await readCapturedMail(extra)).toHaveLength(0);
    // Another organization has its own quota.
    const other = await createTestOrg();
    expect((await other.owner.api.post("/v1/invitations", { email: extra, role: "member" })).status).toBe(201);
  });

  it("shows names as short plain text in the body and never in the Subject", async () => {
    const org = await createTestOrg(PHISHING);
    await db.user.update({ where: { id: org.owner.userId }, data: { name: PHISHING } });
    const victim = `victim-${randomUUID()}@example.test`;
    expect((await org.owner.api.post("/v1/invitations", { email: victim, role: "member" })).status).toBe(201);
    const [mail] = await readCapturedMail(victim);
    expect(mail.subject).toBe("You have been invited to join a team");
    expect(mail.headers.get("bcc")).toBeUndefined();
    const text = mail.text ?? "";
    expect(text).not.toContain("http://evil.test/login");
    expect(text).not.toContain("everyone@example.test");
    expect(text).toContain("URGENT: your account is suspended. Verify now at http://evi…");
    const firstLine = text.split("\n")[0];
    expect(firstLine).not.toMatch(/\r|Bcc:/);
  });
});
