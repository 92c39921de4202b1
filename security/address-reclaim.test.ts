import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as requestReset } from "@/app/api/account/password-reset/request/route";
import { POST as resetPassword } from "@/app/api/account/password-reset/route";
import { POST as signUp } from "@/app/api/sign-up/route";
import { db } from "@/lib/db";
import { callRoute, linkTokenMailedTo, sessionCookie } from "@/lib/testing/accounts";
import { createTestOrg, expectError, request } from "@/lib/testing/api";

// Trust, second pass (L3): a webhook made by someone who registered another person's address
// stayed active after the owner took the address back with a password reset, and went on receiving
// the owner's events. Taking an address back now ends or turns off everything its unproven holder
// set up: sessions, two-factor, API keys, invitations sent, webhooks and inboxes.

async function reclaim(email: string, password: string) {
  await callRoute(requestReset, "/api/account/password-reset/request", { body: { email } });
  const token = await linkTokenMailedTo(email, "reset-password");
  expect((await callRoute(resetPassword, "/api/account/password-reset", { body: { token, password } })).status).toBe(200);
}

describe("taking an address back", () => {
  it("turns off what its unproven holder set up, so none of it acts for the owner", async () => {
    const email = `squatted-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Squatter", email, password: "squatter-pass", organization_name: "Squat" } });
    const squatter = await db.user.findUniqueOrThrow({ where: { email } });
    const { organization_id: organizationId } = await db.membership.findFirstOrThrow({ where: { user_id: squatter.id } });
    const cookie = await sessionCookie(squatter.id);
    const asSquatter = (method: string, path: string, body?: unknown) => request(method, path, { headers: { cookie }, body });

    const hook = await asSquatter("POST", "/v1/webhooks", { url: "https://collector.attacker.test/hook", events: ["contact.created"] });
    expect(hook.status).toBe(201);
    const inbox = await asSquatter("POST", "/v1/inboxes", {
      name: "Relay",
      from_email: "relay@attacker.test",
      smtp: { host: "smtp.attacker.test", port: 587, secure: false, username: "u", password: "p" },
    });
    expect(inbox.status).toBe(201);
    // What the holder of an unproven address could make before those needed a proven one.
    const key = await db.apiKey.create({ data: { organization_id: organizationId, user_id: squatter.id, name: "old", token_hint: "x" } });
    const invitation = await db.invitation.create({
      data: {
        organization_id: organizationId,
        email: `accomplice-${randomUUID()}@example.test`,
        role: "admin",
        token_hash: randomUUID(),
        invited_by: squatter.id,
        expires_at: new Date(Date.now() + 86_400_000),
      },
    });

    await reclaim(email, "owners-new-pass");

    expect(await db.webhook.findUniqueOrThrow({ where: { id: hook.body.id } })).toMatchObject({
      active: false,
      disabled_reason: expect.stringMatching(/before the address was proven/),
    });
    expect(await db.inbox.findUniqueOrThrow({ where: { id: inbox.body.id } })).toMatchObject({ paused: true, paused_reason: "manual" });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revoked_at).not.toBeNull();
    expect((await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).status).toBe("cancelled");
    expectError(await asSquatter("GET", "/v1/webhooks"), 401, "UNAUTHORIZED");

    // The owner works in the organization now: its events go nowhere the squatter chose.
    const ownerCookie = await sessionCookie(squatter.id);
    expect((await request("POST", "/v1/contacts", { headers: { cookie: ownerCookie }, body: { email: "first@customer.test" } })).status).toBe(201);
    expect(await db.webhookDelivery.count({ where: { webhook_id: hook.body.id } })).toBe(0);
    // Recorded for the owner to see.
    expect(await db.auditLog.count({ where: { organization_id: organizationId, action: "user.address_reclaimed" } })).toBe(1);
  });

  it("leaves a proven owner's own set-up alone when they reset their password", async () => {
    const org = await createTestOrg();
    const hook = await org.owner.api.post("/v1/webhooks", { url: "https://hooks.owner.test/in", events: ["contact.created"] });
    expect(hook.status).toBe(201);
    await reclaim(org.owner.email, "owners-new-pass");
    expect(await db.webhook.findUniqueOrThrow({ where: { id: hook.body.id } })).toMatchObject({ active: true, disabled_reason: null });
    expect((await org.owner.api.get("/v1/webhooks")).status).toBe(200);
  });
});
