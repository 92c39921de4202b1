import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";

// Trust, second pass: the daily invitation cap was per organization, and organizations were
// unlimited: one verified user made a second organization and sent 53 invitations against a cap of
// 50. Invitations are now capped per user too, across organizations, and so are the organizations a
// user creates. lib/env reads the caps once, so they are set before anything imports it.
process.env.INVITATIONS_PER_DAY = "5";
process.env.INVITATIONS_PER_USER_PER_DAY = "7";
process.env.ORGANIZATIONS_PER_USER = "3";
const { POST: createOrganization } = await import("@/app/api/session/organizations/route");
const { POST: signUp } = await import("@/app/api/sign-up/route");
const { db } = await import("@/lib/db");
const { callRoute, createUser, sessionCookie } = await import("@/lib/testing/accounts");
const { expectError, request } = await import("@/lib/testing/api");

const newOrganization = (cookie: string, name: string) => callRoute(createOrganization, "/api/session/organizations", { cookie, body: { name } });
const invite = (cookie: string, organizationId: string) =>
  request("POST", "/v1/invitations", {
    headers: { cookie, "x-organization-id": organizationId },
    body: { email: `invitee-${randomUUID()}@example.test`, role: "member" },
  });

describe("invitation and organization caps", () => {
  it("caps the organizations a user creates, the one made at sign-up included", async () => {
    const email = `founder-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Founder", email, password: "password-123" } });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    const cookie = await sessionCookie(user.id);
    expect((await newOrganization(cookie, "Second")).status).toBe(201);
    expect((await newOrganization(cookie, "Third")).status).toBe(201);
    const refused = await newOrganization(cookie, "Fourth");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
    expect(refused.body.error).toMatch(/3 organizations/);
    expect(await db.membership.count({ where: { user_id: user.id } })).toBe(3);
  });

  it("caps the invitations one user sends in a day across all their organizations", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const first = (await newOrganization(cookie, "First")).body.id as string;
    const second = (await newOrganization(cookie, "Second")).body.id as string;
    for (let i = 0; i < 5; i++) expect((await invite(cookie, first)).status).toBe(201);
    // The first organization's own cap.
    expectError(await invite(cookie, first), 429, "RATE_LIMITED");
    // Another organization does not start the user's count again: 2 more, then the user's cap.
    expect((await invite(cookie, second)).status).toBe(201);
    const sent = await invite(cookie, second);
    expect(sent.status).toBe(201);
    const refused = expectError(await invite(cookie, second), 429, "RATE_LIMITED");
    expect(refused.error).toMatch(/You have sent 7 invitations/);
    // Resends are invitation emails too.
    expectError(await request("POST", `/v1/invitations/${sent.body.id}/resend`, { headers: { cookie, "x-organization-id": second } }), 429, "RATE_LIMITED");

    // A colleague in the second organization has an allowance of their own, within the organization's.
    const colleague = await createUser();
    await db.membership.create({ data: { organization_id: second, user_id: colleague.id, role: "admin" } });
    const colleagueCookie = await sessionCookie(colleague.id);
    for (let i = 0; i < 3; i++) expect((await invite(colleagueCookie, second)).status).toBe(201);
    expectError(await invite(colleagueCookie, second), 429, "RATE_LIMITED");
  });
});
