import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { POST as requestReset } from "@/app/api/account/password-reset/request/route";
import { POST as resetPassword } from "@/app/api/account/password-reset/route";
import { POST as enable } from "@/app/api/account/two-factor/enable/route";
import { POST as setup } from "@/app/api/account/two-factor/setup/route";
import { POST as signUp } from "@/app/api/sign-up/route";
import { db } from "@/lib/db";
import { signInWithPassword } from "@/lib/services/accounts";
import { callRoute, createUser, linkTokenMailedTo, sessionCookie } from "@/lib/testing/accounts";

// Trust, second pass: two-factor sign-in could be turned on with a session alone and by an account
// whose address was never proven, and a password reset left it on. Whoever registered another
// person's address first could lock its owner out for good: the owner's reset gave them the
// password, and the squatter's authenticator still stood between them and their account.

async function resetAs(email: string, password: string) {
  expect((await callRoute(requestReset, "/api/account/password-reset/request", { body: { email } })).status).toBe(200);
  const token = await linkTokenMailedTo(email, "reset-password");
  expect((await callRoute(resetPassword, "/api/account/password-reset", { body: { token, password } })).status).toBe(200);
}

describe("two-factor lock-out", () => {
  it("cannot be turned on by an account whose address is not proven", async () => {
    const email = `squatted-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Squatter", email, password: "squatter-pass" } });
    const squatter = await db.user.findUniqueOrThrow({ where: { email } });
    const cookie = await sessionCookie(squatter.id);
    const refused = await callRoute(setup, "/api/account/two-factor/setup", { cookie });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("EMAIL_NOT_VERIFIED");
    expect((await callRoute(enable, "/api/account/two-factor/enable", { cookie, body: { code: "123456", password: "squatter-pass" } })).body.code).toBe(
      "EMAIL_NOT_VERIFIED",
    );
    expect(await db.user.findUniqueOrThrow({ where: { id: squatter.id } })).toMatchObject({ totp_secret: null, totp_enabled_at: null });

    // The owner resets the password and signs in with it alone.
    await resetAs(email, "owners-new-pass");
    expect((await signInWithPassword({ email, password: "owners-new-pass", ip: null })).ok).toBe(true);
  });

  it("needs the password as well as a code from the app", async () => {
    const user = await createUser({ password: "the-right-password" });
    const cookie = await sessionCookie(user.id);
    const secret: string = (await callRoute(setup, "/api/account/two-factor/setup", { cookie })).body.secret;
    const code = await generate({ secret });
    // A session left open (or a stolen cookie) is not enough.
    const missing = await callRoute(enable, "/api/account/two-factor/enable", { cookie, body: { code } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("VALIDATION_ERROR");
    const wrong = await callRoute(enable, "/api/account/two-factor/enable", { cookie, body: { code, password: "not-it" } });
    expect(wrong.body.code).toBe("INVALID_PASSWORD");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).totp_enabled_at).toBeNull();
    const enabled = await callRoute(enable, "/api/account/two-factor/enable", { cookie, body: { code, password: "the-right-password" } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recovery_codes).toHaveLength(10);

    // A proven owner's two-factor survives a reset: a mailbox alone does not sign in.
    await resetAs(user.email, "new-password-1");
    expect(await signInWithPassword({ email: user.email, password: "new-password-1", ip: null })).toEqual({ ok: false, reason: "two_factor_required" });
  });

  it("set up before the address was proven is cleared when its owner takes the address back", async () => {
    // An account squatted before this defence: its holder turned two-factor on while unverified.
    const email = `squatted-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Squatter", email, password: "squatter-pass" } });
    const squatter = await db.user.findUniqueOrThrow({ where: { email } });
    await db.user.update({ where: { id: squatter.id }, data: { totp_secret: "sealed-secret-of-the-squatter", totp_enabled_at: new Date() } });
    await db.recoveryCode.create({ data: { user_id: squatter.id, code_hash: "a".repeat(64) } });

    await resetAs(email, "owners-new-pass");
    expect((await signInWithPassword({ email, password: "owners-new-pass", ip: null })).ok).toBe(true);
    expect(await db.user.findUniqueOrThrow({ where: { id: squatter.id } })).toMatchObject({ totp_secret: null, totp_enabled_at: null });
    expect(await db.recoveryCode.count({ where: { user_id: squatter.id } })).toBe(0);
  });
});
