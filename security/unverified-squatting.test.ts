import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as requestReset } from "@/app/api/account/password-reset/request/route";
import { POST as resetPassword } from "@/app/api/account/password-reset/route";
import { POST as verifyEmail } from "@/app/api/account/verify-email/route";
import { POST as signUp } from "@/app/api/sign-up/route";
import { db } from "@/lib/db";
import { invitationTokenOf, readCapturedMail } from "@/lib/mail/captured-mail";
import { callRoute, linkTokenMailedTo, sessionCookie } from "@/lib/testing/accounts";
import { createTestOrg, expectError, request } from "@/lib/testing/api";
import { signInWithPassword } from "@/lib/services/accounts";

// Issue 8, item 7: anyone could register someone else's address, and anyone holding an invitation
// link could sign up as the invitee and join. An address must now be proven by a mailed link.
describe("unverified sign-up", () => {
  it("cannot accept an invitation, invite or create API keys until the address is proven", async () => {
    const org = await createTestOrg("Victim Co");
    const invitee = `invitee-${randomUUID()}@example.test`;
    expect((await org.owner.api.post("/v1/invitations", { email: invitee, role: "admin" })).status).toBe(201);
    const invitationToken = invitationTokenOf((await readCapturedMail(invitee))[0]);

    // The attacker holds the link (a forwarded mail, a shared screen) and signs up as the invitee.
    expect(
      (await callRoute(signUp, "/api/sign-up", { body: { name: "Squatter", email: invitee, password: "squatter-pass", invitation_token: invitationToken } }))
        .status,
    ).toBe(202);
    const squatter = await db.user.findUniqueOrThrow({ where: { email: invitee } });
    const cookie = await sessionCookie(squatter.id);
    const asSquatter = (method: string, path: string, body?: unknown) => request(method, path, { headers: { cookie }, body });

    const accept = expectError(await asSquatter("POST", `/v1/invitations/${invitationToken}/accept`), 403, "EMAIL_NOT_VERIFIED");
    expect(accept.error).toMatch(/Verify your email address/);
    expect(await db.membership.count({ where: { organization_id: org.organizationId, user_id: squatter.id } })).toBe(0);

    // An unverified owner of a fresh organization can neither invite nor mint keys.
    const other = `owner-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Phisher", email: other, password: "password-123", organization_name: "Phish" } });
    const phisher = await db.user.findUniqueOrThrow({ where: { email: other } });
    const phisherCookie = await sessionCookie(phisher.id);
    expectError(
      await request("POST", "/v1/invitations", { headers: { cookie: phisherCookie }, body: { email: "victim@example.test", role: "member" } }),
      403,
      "EMAIL_NOT_VERIFIED",
    );
    expectError(await request("POST", "/v1/api-keys", { headers: { cookie: phisherCookie }, body: { name: "key" } }), 403, "EMAIL_NOT_VERIFIED");
    expect(await readCapturedMail("victim@example.test")).toHaveLength(0);

    // Proven by the link in the mail, the same account may do all three.
    expect((await callRoute(verifyEmail, "/api/account/verify-email", { body: { token: await linkTokenMailedTo(other, "verify-email") } })).status).toBe(200);
    expect((await request("POST", "/v1/api-keys", { headers: { cookie: phisherCookie }, body: { name: "key" } })).status).toBe(201);
  });

  it("lets the real owner of a squatted address take it back with a password reset", async () => {
    const email = `squatted-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Squatter", email, password: "squatter-pass" } });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    const squatterCookie = await sessionCookie(user.id);

    expect((await callRoute(requestReset, "/api/account/password-reset/request", { body: { email } })).status).toBe(200);
    const token = await linkTokenMailedTo(email, "reset-password");
    expect((await callRoute(resetPassword, "/api/account/password-reset", { body: { token, password: "owners-new-pass" } })).status).toBe(200);

    expect((await signInWithPassword({ email, password: "squatter-pass", ip: null })).ok).toBe(false);
    expect((await signInWithPassword({ email, password: "owners-new-pass", ip: null })).ok).toBe(true);
    // The link reached the inbox: the address is proven, and the squatter's session is over.
    expect((await db.user.findUniqueOrThrow({ where: { email } })).email_verified_at).not.toBeNull();
    expectError(await request("GET", "/v1/api-keys", { headers: { cookie: squatterCookie } }), 401, "UNAUTHORIZED");
  });
});
