import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { POST as disable } from "@/app/api/account/two-factor/disable/route";
import { POST as enable } from "@/app/api/account/two-factor/enable/route";
import { POST as setup } from "@/app/api/account/two-factor/setup/route";
import { db } from "@/lib/db";
import { signInWithPassword } from "@/lib/services/accounts";
import { callRoute, createUser, sessionCookie } from "@/lib/testing/accounts";

// Owners and admins may add a second factor: a password alone, guessed or phished, no longer signs in.
async function userWithTwoFactor() {
  const user = await createUser({ password: "the-right-password" });
  const cookie = await sessionCookie(user.id);
  const started = await callRoute(setup, "/api/account/two-factor/setup", { cookie });
  expect(started.status).toBe(200);
  const secret: string = started.body.secret;
  expect(started.body.otpauth_url).toContain(`secret=${secret}`);
  expect(started.body.qr_svg).toMatch(/^<svg/);
  // Stored sealed, never as the secret itself.
  expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).totp_secret).not.toContain(secret);

  expect((await callRoute(enable, "/api/account/two-factor/enable", { cookie, body: { code: "000000", password: "the-right-password" } })).body.code).toBe(
    "INVALID_TWO_FACTOR_CODE",
  );
  const enabled = await callRoute(enable, "/api/account/two-factor/enable", {
    cookie,
    body: { code: await generate({ secret }), password: "the-right-password" },
  });
  expect(enabled.status).toBe(200);
  const recoveryCodes: string[] = enabled.body.recovery_codes;
  expect(recoveryCodes).toHaveLength(10);
  return { user, cookie, secret, recoveryCodes };
}

const signIn = (email: string, code?: string, password = "the-right-password") => signInWithPassword({ email, password, code, ip: null });

describe("two-factor sign-in", () => {
  it("asks for a code after the password, takes a current code once, and refuses wrong ones", async () => {
    const { user, secret } = await userWithTwoFactor();
    expect(await signIn(user.email)).toEqual({ ok: false, reason: "two_factor_required" });
    expect(await signIn(user.email, "123456")).toEqual({ ok: false, reason: "invalid_code" });
    // A wrong password with a right code is still a wrong password.
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect(await signIn(user.email, code, "wrong")).toEqual({ ok: false, reason: "invalid" });
    expect((await signIn(user.email, code)).ok).toBe(true);
    // The same code again (read over a shoulder) does not sign in a second time.
    expect(await signIn(user.email, code)).toEqual({ ok: false, reason: "invalid_code" });
  });

  it("takes each recovery code once, and only with the password", async () => {
    const { user, recoveryCodes } = await userWithTwoFactor();
    expect(await signIn(user.email, recoveryCodes[0], "wrong")).toEqual({ ok: false, reason: "invalid" });
    expect((await signIn(user.email, recoveryCodes[0].toUpperCase())).ok).toBe(true);
    expect(await signIn(user.email, recoveryCodes[0])).toEqual({ ok: false, reason: "invalid_code" });
    expect((await signIn(user.email, recoveryCodes[1])).ok).toBe(true);
    // Only hashes are stored.
    const stored = await db.recoveryCode.findMany({ where: { user_id: user.id } });
    expect(stored.some((row) => recoveryCodes.some((code) => row.code_hash.includes(code.replace("-", ""))))).toBe(false);
    expect(stored.filter((row) => row.used_at !== null)).toHaveLength(2);
  });

  it("is turned off only with the password", async () => {
    const { user, cookie } = await userWithTwoFactor();
    expect((await callRoute(disable, "/api/account/two-factor/disable", { cookie, body: { password: "wrong" } })).body.code).toBe("INVALID_PASSWORD");
    expect((await callRoute(disable, "/api/account/two-factor/disable", { cookie, body: { password: "the-right-password" } })).status).toBe(200);
    expect((await signIn(user.email)).ok).toBe(true);
    expect(await db.recoveryCode.count({ where: { user_id: user.id } })).toBe(0);
  });
});
