import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as requestReset } from "@/app/api/account/password-reset/request/route";
import { POST as resetPassword } from "@/app/api/account/password-reset/route";
import { POST as resend } from "@/app/api/account/verify-email/resend/route";
import { POST as verifyEmail } from "@/app/api/account/verify-email/route";
import { POST as signUp } from "@/app/api/sign-up/route";
import { hashLinkToken } from "@/lib/auth/random-token";
import { db } from "@/lib/db";
import { settleMailAfterAnswer } from "@/lib/mail/after-answer";
import { readCapturedMail } from "@/lib/mail/captured-mail";
import { signInWithPassword } from "@/lib/services/accounts";
import { callRoute, createUser, linkTokenMailedTo, sessionCookie } from "@/lib/testing/accounts";

const verify = (token: string) => callRoute(verifyEmail, "/api/account/verify-email", { body: { token } });
const reset = (token: string, password: string) => callRoute(resetPassword, "/api/account/password-reset", { body: { token, password } });
const expire = (token: string) => db.accountToken.update({ where: { token_hash: hashLinkToken(token) }, data: { expires_at: new Date(Date.now() - 1000) } });

describe("links mailed to users", () => {
  it("verifies the address with the link from the sign-up mail, once", async () => {
    const email = `verify-${randomUUID()}@example.test`;
    await callRoute(signUp, "/api/sign-up", { body: { name: "Vera", email, password: "password-123" } });
    const token = await linkTokenMailedTo(email, "verify-email");
    const row = await db.accountToken.findUniqueOrThrow({ where: { token_hash: hashLinkToken(token) } });
    expect(Math.abs(row.expires_at.getTime() - row.created_at.getTime() - 24 * 60 * 60 * 1000)).toBeLessThan(60_000);

    const verified = await verify(token);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true, email });
    expect((await db.user.findUniqueOrThrow({ where: { email } })).email_verified_at).not.toBeNull();
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_TOKEN");
  });

  it("refuses an expired verification link, and mails a new one on request (three an hour)", async () => {
    const user = await createUser({ verified: false });
    const cookie = await sessionCookie(user.id);
    expect((await callRoute(resend, "/api/account/verify-email/resend", { cookie })).body).toEqual({ success: true, already_verified: false });
    const token = await linkTokenMailedTo(user.email, "verify-email");
    await expire(token);
    expect((await verify(token)).body.code).toBe("INVALID_TOKEN");
    await callRoute(resend, "/api/account/verify-email/resend", { cookie });
    await callRoute(resend, "/api/account/verify-email/resend", { cookie });
    const limited = await callRoute(resend, "/api/account/verify-email/resend", { cookie });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await verify(await linkTokenMailedTo(user.email, "verify-email"))).status).toBe(200);
    expect((await callRoute(resend, "/api/account/verify-email/resend", { cookie })).body.already_verified).toBe(true);
  });

  it("resets the password with the mailed link: once, within the hour, ending every session", async () => {
    const user = await createUser({ password: "old-password" });
    const cookie = await sessionCookie(user.id);
    const unknown = await callRoute(requestReset, "/api/account/password-reset/request", { body: { email: `nobody-${randomUUID()}@example.test` } });
    const known = await callRoute(requestReset, "/api/account/password-reset/request", { body: { email: user.email.toUpperCase() } });
    // The same answer whether or not the address has an account.
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);

    const [mail] = await readCapturedMail(user.email);
    expect(mail.subject).toBe("Reset your password");
    const token = await linkTokenMailedTo(user.email, "reset-password");
    const row = await db.accountToken.findUniqueOrThrow({ where: { token_hash: hashLinkToken(token) } });
    expect(Math.abs(row.expires_at.getTime() - row.created_at.getTime() - 60 * 60 * 1000)).toBeLessThan(60_000);
    expect(row.token_hash).not.toBe(token);

    expect((await reset(token, "short")).body.code).toBe("VALIDATION_ERROR");
    expect((await reset(token, "brand-new-password")).status).toBe(200);
    expect((await signInWithPassword({ email: user.email, password: "old-password", ip: null })).ok).toBe(false);
    expect((await signInWithPassword({ email: user.email, password: "brand-new-password", ip: null })).ok).toBe(true);
    expect((await callRoute(resend, "/api/account/verify-email/resend", { cookie })).status).toBe(401);
    expect((await reset(token, "another-password")).body.code).toBe("INVALID_TOKEN");
  });

  it("refuses an expired reset link, and a newer reset voids the older links", async () => {
    const user = await createUser({ password: "old-password" });
    await callRoute(requestReset, "/api/account/password-reset/request", { body: { email: user.email } });
    const first = await linkTokenMailedTo(user.email, "reset-password");
    await expire(first);
    expect((await reset(first, "brand-new-password")).body.code).toBe("INVALID_TOKEN");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await callRoute(requestReset, "/api/account/password-reset/request", { body: { email: user.email } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await callRoute(requestReset, "/api/account/password-reset/request", { body: { email: user.email } });
    // The links are made after the answers.
    await settleMailAfterAnswer();
    const tokens = await db.accountToken.findMany({ where: { user_id: user.id, purpose: "reset_password", used_at: null, expires_at: { gt: new Date() } } });
    expect(tokens).toHaveLength(2);
    const latest = await linkTokenMailedTo(user.email, "reset-password");
    expect((await reset(latest, "brand-new-password")).status).toBe(200);
    expect(await db.accountToken.count({ where: { user_id: user.id, purpose: "reset_password", used_at: null } })).toBe(0);
  });
});
