import { createHash, randomBytes, randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { invitationTokenOf, readCapturedMail } from "@/lib/mail/captured-mail";
import { describeInvitation } from "@/lib/services/invitations";
import { issueApiKey } from "@/lib/services/api-keys";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { invitationsOperations } from "./invitations";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const newAddress = (prefix = "invitee") => `${prefix}-${randomUUID()}@example.test`;
const DAY = 24 * 60 * 60 * 1000;

/** The token of the newest invitation mailed to `email`. */
async function mailedToken(email: string): Promise<string> {
  const mails = await readCapturedMail(email);
  expect(mails.length).toBeGreaterThan(0);
  return invitationTokenOf(mails[mails.length - 1]);
}

/** An invitation from `org` to `email`, and the token of its link. */
async function invite(org: TestOrg, email: string, role: "member" | "admin" = "member") {
  const created = await org.owner.api.post("/v1/invitations", { email, role });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, token: await mailedToken(email.toLowerCase()) };
}

describe("invitations", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg("Acme");
    other = await createTestOrg("Other");
  });

  describe("POST /v1/invitations", () => {
    it("creates a pending invitation, stores only the token's hash and mails the link", async () => {
      const local = `new.person-${randomUUID()}`;
      const before = Date.now();
      const created = await org.owner.api.post("/v1/invitations", { email: `${local.toUpperCase()}@Example.TEST`, role: "admin" });
      expect(created.status).toBe(201);
      const email = `${local}@example.test`;
      expect(created.body).toMatchObject({
        organization_id: org.organizationId,
        email,
        role: "admin",
        status: "pending",
        invited_by: org.owner.userId,
        inviter_name: "Owner Person",
        inviter_email: org.owner.email,
      });
      expect(Object.keys(created.body).sort()).toEqual(
        ["id", "organization_id", "email", "role", "status", "invited_by", "inviter_name", "inviter_email", "expires_at", "created_at", "updated_at"].sort(),
      );
      const expiresIn = Date.parse(created.body.expires_at) - before;
      expect(expiresIn).toBeGreaterThanOrEqual(7 * DAY - 1000);
      expect(expiresIn).toBeLessThanOrEqual(7 * DAY + 60_000);
      expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const [mail] = await readCapturedMail(email);
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe(email);
      expect(mail.subject).toBe("You have been invited to join a team");
      expect(mail.text).toContain("Owner Person (");
      expect(mail.text).toContain("as an admin");
      expect(mail.html).toContain("Acme");
      const token = invitationTokenOf(mail);
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(mail.text).toContain(`${env.appUrl}/invitations/${token}`);
      expect(mail.html).toContain(`${env.appUrl}/invitations/${token}`);
      const row = await db.invitation.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row.token_hash).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);
    });

    it("lets an admin invite and escapes names in the HTML", async () => {
      const admin = await org.addMember("admin");
      await db.user.update({ where: { id: admin.userId }, data: { name: "<b>Eve</b>" } });
      const email = newAddress();
      const created = await admin.api.post("/v1/invitations", { email, role: "member" });
      expect(created.status).toBe(201);
      expect(created.body.invited_by).toBe(admin.userId);
      expect(created.body.inviter_name).toBe("<b>Eve</b>");
      const [mail] = await readCapturedMail(email);
      expect(mail.html).toContain("&lt;b&gt;Eve&lt;/b&gt;");
      expect(mail.html).not.toContain("<b>Eve</b>");
    });

    it("validates email and role", async () => {
      const missing = expectError(await org.owner.api.post("/v1/invitations", { role: "member" }), 400, "VALIDATION_ERROR");
      expect(missing.details?.map((d) => d.path)).toEqual(["email"]);
      const bad = expectError(await org.owner.api.post("/v1/invitations", { email: "not-an-email", role: "member" }), 400, "VALIDATION_ERROR");
      expect(bad.details?.[0].path).toBe("email");
      const owner = expectError(await org.owner.api.post("/v1/invitations", { email: newAddress(), role: "owner" }), 400, "VALIDATION_ERROR");
      expect(owner.details?.[0].path).toBe("role");
      const long = expectError(
        await org.owner.api.post("/v1/invitations", { email: `${"a".repeat(320)}@example.test`, role: "member" }),
        400,
        "VALIDATION_ERROR",
      );
      expect(long.details?.[0].path).toBe("email");
      for (const [body, path] of [
        [{ email: newAddress() }, "role"],
        [{ email: newAddress(), role: null }, "role"],
        [{ email: 42, role: "member" }, "email"],
        [{ email: `a\u0000${newAddress()}`, role: "member" }, "email"],
      ] as const) {
        const error = expectError(await org.owner.api.post("/v1/invitations", body), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(body),
        ).toEqual([path]);
      }
      expect(await db.invitation.count({ where: { organization_id: org.organizationId, email: "not-an-email" } })).toBe(0);
    });

    it("refuses a second pending invitation (409 CONFLICT) but not after the first expired", async () => {
      const email = newAddress();
      const first = await invite(org, email);
      const again = expectError(await org.owner.api.post("/v1/invitations", { email: email.toUpperCase(), role: "admin" }), 409, "CONFLICT");
      expect(again.details?.[0].path).toBe("email");
      // The same address may be invited by another organization.
      expect((await other.owner.api.post("/v1/invitations", { email, role: "member" })).status).toBe(201);

      await db.invitation.update({ where: { id: first.id }, data: { expires_at: new Date(Date.now() - 1000) } });
      const second = await org.owner.api.post("/v1/invitations", { email, role: "member" });
      expect(second.status).toBe(201);
      expect((await db.invitation.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("expired");
    });

    it("refuses to invite a member (409 ALREADY_MEMBER)", async () => {
      const member = await org.addMember("member");
      expectError(await org.owner.api.post("/v1/invitations", { email: member.email.toUpperCase(), role: "admin" }), 409, "ALREADY_MEMBER");
      expectError(await org.owner.api.post("/v1/invitations", { email: org.owner.email, role: "member" }), 409, "ALREADY_MEMBER");
      expect(await db.invitation.count({ where: { email: member.email } })).toBe(0);
    });

    it("forbids members (403) and refuses missing credentials (401)", async () => {
      const member = await org.addMember("member");
      const email = newAddress();
      expectError(await member.api.post("/v1/invitations", { email, role: "member" }), 403, "FORBIDDEN");
      expectError(await client(null).post("/v1/invitations", { email, role: "member" }), 401, "UNAUTHORIZED");
      expect(await db.invitation.count({ where: { email } })).toBe(0);
    });
  });

  describe("GET /v1/invitations", () => {
    it("lists the pending invitations newest first and marks the expired ones", async () => {
      const fresh = await createTestOrg();
      const a = await invite(fresh, newAddress());
      const b = await invite(fresh, newAddress(), "admin");
      const expired = await invite(fresh, newAddress());
      const cancelled = await invite(fresh, newAddress());
      await db.invitation.update({ where: { id: expired.id }, data: { expires_at: new Date(Date.now() - 1000) } });
      expect((await fresh.owner.api.delete(`/v1/invitations/${cancelled.id}`)).status).toBe(200);
      await invite(other, newAddress());

      const list = await fresh.owner.api.get("/v1/invitations");
      expect(list.status).toBe(200);
      expect(Object.keys(list.body)).toEqual(["invitations"]);
      expect(list.body.invitations.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
      expect(list.body.invitations[0]).toMatchObject({ status: "pending", role: "admin", inviter_email: fresh.owner.email });
      expect((await db.invitation.findUniqueOrThrow({ where: { id: expired.id } })).status).toBe("expired");
    });

    it("forbids members (403) and refuses missing credentials (401)", async () => {
      const member = await org.addMember("member");
      expectError(await member.api.get("/v1/invitations"), 403, "FORBIDDEN");
      expectError(await client(null).get("/v1/invitations"), 401, "UNAUTHORIZED");
      const admin = await org.addMember("admin");
      expect((await admin.api.get("/v1/invitations")).status).toBe(200);
    });
  });

  describe("POST /v1/invitations/{token}/accept", () => {
    it("makes the invited user a member with the invitation's role", async () => {
      const invitee = await createTestOrg("Invitee's own org");
      const { id, token } = await invite(org, invitee.owner.email.toUpperCase(), "admin");
      const accepted = await invitee.owner.api.post(`/v1/invitations/${token}/accept`);
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ success: true, organization_id: org.organizationId, role: "admin" });

      const membership = await db.membership.findUniqueOrThrow({
        where: { organization_id_user_id: { organization_id: org.organizationId, user_id: invitee.owner.userId } },
      });
      expect(membership.role).toBe("admin");
      const row = await db.invitation.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe("accepted");
      expect(row.accepted_by).toBe(invitee.owner.userId);
      expect(row.accepted_at).toBeInstanceOf(Date);
      // Their own organization is untouched, and a key for the new one works with the new role.
      expect(await db.membership.count({ where: { user_id: invitee.owner.userId } })).toBe(2);
      const key = await issueApiKey(org.organizationId, invitee.owner.userId, "joined");
      expect((await client(key.token).get("/v1/invitations")).status).toBe(200);
      // The invitation is used up.
      expectError(await invitee.owner.api.post(`/v1/invitations/${token}/accept`), 409, "INVITATION_ALREADY_ACCEPTED");
      expect((await org.owner.api.get("/v1/invitations")).body.invitations.map((i: { id: string }) => i.id)).not.toContain(id);
    });

    it("lets a signed-in user who belongs to no organization accept (dashboard session)", async () => {
      const email = newAddress("newcomer");
      const { token } = await invite(org, email);
      const user = await db.user.create({ data: { email, name: "Newcomer", password_hash: "x", email_verified_at: new Date() } });
      const session = await encode({ token: { sub: user.id, email }, secret: env.authSecret });
      const accepted = await request("POST", `/v1/invitations/${token}/accept`, { headers: { cookie: `next-auth.session-token=${session}` } });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ success: true, organization_id: org.organizationId, role: "member" });
      expect(await db.membership.count({ where: { user_id: user.id, organization_id: org.organizationId, role: "member" } })).toBe(1);
    });

    it("validates the token and 404s an unknown one", async () => {
      const invitee = await createTestOrg();
      const short = expectError(await invitee.owner.api.post("/v1/invitations/short-token/accept"), 400, "VALIDATION_ERROR");
      expect(short.details?.[0].path).toBe("token");
      expectError(await invitee.owner.api.post(`/v1/invitations/${"x".repeat(201)}/accept`), 400, "VALIDATION_ERROR");
      const nul = expectError(await invitee.owner.api.post(`/v1/invitations/${"x".repeat(20)}%00${"x".repeat(20)}/accept`), 400, "VALIDATION_ERROR");
      expect(nul.details?.map((d) => d.path)).toEqual(["token"]);
      expectError(await invitee.owner.api.post(`/v1/invitations/${randomBytes(32).toString("base64url")}/accept`), 404, "NOT_FOUND");
    });

    it("refuses missing credentials (401) without using the invitation", async () => {
      const { id, token } = await invite(org, newAddress());
      expectError(await client(null).post(`/v1/invitations/${token}/accept`), 401, "UNAUTHORIZED");
      expect((await db.invitation.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    });

    it("refuses a caller whose email is not the invited one (403) and changes nothing", async () => {
      const { id, token } = await invite(org, newAddress());
      const stranger = await createTestOrg();
      expectError(await stranger.owner.api.post(`/v1/invitations/${token}/accept`), 403, "INVITATION_EMAIL_MISMATCH");
      expect((await db.invitation.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
      expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: stranger.owner.userId } })).toBe(0);
    });

    it("answers 410 for an expired invitation and marks it expired", async () => {
      const invitee = await createTestOrg();
      const { id, token } = await invite(org, invitee.owner.email);
      await db.invitation.update({ where: { id }, data: { expires_at: new Date(Date.now() - 60_000) } });
      expectError(await invitee.owner.api.post(`/v1/invitations/${token}/accept`), 410, "INVITATION_EXPIRED");
      expect((await db.invitation.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
      expectError(await invitee.owner.api.post(`/v1/invitations/${token}/accept`), 410, "INVITATION_EXPIRED");
      expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: invitee.owner.userId } })).toBe(0);
    });

    it("answers 409 INVITATION_NOT_PENDING for a cancelled invitation", async () => {
      const invitee = await createTestOrg();
      const { id, token } = await invite(org, invitee.owner.email);
      expect((await org.owner.api.delete(`/v1/invitations/${id}`)).body).toEqual({ success: true });
      expectError(await invitee.owner.api.post(`/v1/invitations/${token}/accept`), 409, "INVITATION_NOT_PENDING");
      expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: invitee.owner.userId } })).toBe(0);
    });

    it("answers 409 ALREADY_MEMBER when the caller joined another way, leaving the invitation pending", async () => {
      const invitee = await createTestOrg();
      const { id, token } = await invite(org, invitee.owner.email);
      await db.membership.create({ data: { organization_id: org.organizationId, user_id: invitee.owner.userId, role: "member" } });
      expectError(await invitee.owner.api.post(`/v1/invitations/${token}/accept`), 409, "ALREADY_MEMBER");
      expect((await db.invitation.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    });

    it("accepts once when two accepts race", async () => {
      const invitee = await createTestOrg();
      const { token } = await invite(org, invitee.owner.email);
      const results = await Promise.all([1, 2, 3].map(() => invitee.owner.api.post(`/v1/invitations/${token}/accept`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: invitee.owner.userId } })).toBe(1);
    });
  });

  describe("POST /v1/invitations/{id}/resend", () => {
    it("mails a new link, retires the old one and renews the expiry", async () => {
      const invitee = await createTestOrg();
      const first = await invite(org, invitee.owner.email);
      await db.invitation.update({ where: { id: first.id }, data: { expires_at: new Date(Date.now() + DAY) } });
      const resent = await org.owner.api.post(`/v1/invitations/${first.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ id: first.id, status: "pending", email: invitee.owner.email });
      expect(Date.parse(resent.body.expires_at)).toBeGreaterThan(Date.now() + 6 * DAY);
      const mails = await readCapturedMail(invitee.owner.email);
      expect(mails).toHaveLength(2);
      const token = invitationTokenOf(mails[1]);
      expect(token).not.toBe(first.token);
      expectError(await invitee.owner.api.post(`/v1/invitations/${first.token}/accept`), 404, "NOT_FOUND");
      expect((await invitee.owner.api.post(`/v1/invitations/${token}/accept`)).status).toBe(200);
      expectError(await org.owner.api.post(`/v1/invitations/${first.id}/resend`), 409, "INVITATION_NOT_PENDING");
    });

    it("refuses cancelled and expired invitations (409)", async () => {
      const cancelled = await invite(org, newAddress());
      await org.owner.api.delete(`/v1/invitations/${cancelled.id}`);
      expectError(await org.owner.api.post(`/v1/invitations/${cancelled.id}/resend`), 409, "INVITATION_NOT_PENDING");
      const expired = await invite(org, newAddress());
      await db.invitation.update({ where: { id: expired.id }, data: { expires_at: new Date(Date.now() - 1000) } });
      expectError(await org.owner.api.post(`/v1/invitations/${expired.id}/resend`), 409, "INVITATION_NOT_PENDING");
      expect((await db.invitation.findUniqueOrThrow({ where: { id: expired.id } })).status).toBe("expired");
    });

    it("404s a missing id and another organization's invitation (unchanged), 400 on a malformed id", async () => {
      const email = newAddress();
      const theirs = await invite(other, email);
      const before = await db.invitation.findUniqueOrThrow({ where: { id: theirs.id } });
      expectError(await org.owner.api.post(`/v1/invitations/${theirs.id}/resend`), 404, "NOT_FOUND");
      expect(await db.invitation.findUniqueOrThrow({ where: { id: theirs.id } })).toEqual(before);
      expect(await readCapturedMail(email)).toHaveLength(1);
      expectError(await org.owner.api.post(`/v1/invitations/${randomId()}/resend`), 404, "NOT_FOUND");
      const malformed = expectError(await org.owner.api.post(`/v1/invitations/nope/resend`), 400, "VALIDATION_ERROR");
      expect(malformed.details?.[0].path).toBe("id");
    });

    it("forbids members (403) and refuses missing credentials (401)", async () => {
      const { id } = await invite(org, newAddress());
      const before = await db.invitation.findUniqueOrThrow({ where: { id } });
      const member = await org.addMember("member");
      expectError(await member.api.post(`/v1/invitations/${id}/resend`), 403, "FORBIDDEN");
      expectError(await client(null).post(`/v1/invitations/${id}/resend`), 401, "UNAUTHORIZED");
      expect(await db.invitation.findUniqueOrThrow({ where: { id } })).toEqual(before);
    });
  });

  describe("DELETE /v1/invitations/{id}", () => {
    it("cancels a pending invitation once", async () => {
      const { id } = await invite(org, newAddress());
      const cancelled = await org.owner.api.delete(`/v1/invitations/${id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toEqual({ success: true });
      expect((await db.invitation.findUniqueOrThrow({ where: { id } })).status).toBe("cancelled");
      expectError(await org.owner.api.delete(`/v1/invitations/${id}`), 409, "INVITATION_NOT_PENDING");
    });

    it("404s a missing id and another organization's invitation (unchanged), 400 on a malformed id", async () => {
      const theirs = await invite(other, newAddress());
      expectError(await org.owner.api.delete(`/v1/invitations/${theirs.id}`), 404, "NOT_FOUND");
      expect((await db.invitation.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("pending");
      expectError(await org.owner.api.delete(`/v1/invitations/${randomId()}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.delete(`/v1/invitations/nope`), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
    });

    it("forbids members (403) and refuses missing credentials (401)", async () => {
      const { id } = await invite(org, newAddress());
      const member = await org.addMember("member");
      expectError(await member.api.delete(`/v1/invitations/${id}`), 403, "FORBIDDEN");
      expectError(await client(null).delete(`/v1/invitations/${id}`), 401, "UNAUTHORIZED");
      expect((await db.invitation.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    });
  });

  describe("describeInvitation (the accept page)", () => {
    it("describes a link in each state, and nothing for an unknown one", async () => {
      const email = newAddress();
      const { id, token } = await invite(org, email, "admin");
      expect(await describeInvitation(token)).toMatchObject({
        status: "pending",
        email,
        role: "admin",
        organization: { id: org.organizationId, name: "Acme" },
        inviter: { name: "Owner Person", email: org.owner.email },
      });
      await db.invitation.update({ where: { id }, data: { expires_at: new Date(Date.now() - 1000) } });
      expect((await describeInvitation(token))?.status).toBe("expired");
      await db.invitation.update({ where: { id }, data: { status: "cancelled" } });
      expect((await describeInvitation(token))?.status).toBe("cancelled");
      await db.invitation.update({ where: { id }, data: { status: "accepted" } });
      expect((await describeInvitation(token))?.status).toBe("accepted");
      expect(await describeInvitation(randomBytes(32).toString("base64url"))).toBeNull();
      expect(await describeInvitation("short")).toBeNull();
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every invitation operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const invitee = await createTestOrg();
      const { id, token } = await invite(org, invitee.owner.email);
      const state = async () => ({
        invitations: await db.invitation.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
        memberships: await db.membership.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
      });
      const before = await state();
      for (const op of invitationsOperations) {
        const path = op.path.replace("{id}", id).replace("{token}", token);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { email: newAddress(), role: "admin" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
