import { createHash, randomInt } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { AppError } from "@/lib/domain/errors";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { db, type Prisma } from "@/lib/db";
import { requireVerifiedEmail } from "@/lib/domain/context";
import { verifyPassword } from "./password";

const ISSUER = "Mailplatform";
const RECOVERY_CODES = 10;
// Crockford-like alphabet without look-alikes (0/O, 1/I/L): codes are read off paper.
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

const hashRecoveryCode = (code: string) => createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));

/**
 * Step one of turning two-factor sign-in on: a new secret, kept sealed until a code from the app
 * confirms it. The secret and its QR code are shown this once.
 */
export async function startTwoFactorSetup(userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, totp_enabled_at: true, email_verified_at: true } });
  requireProvenAddress(user);
  if (user.totp_enabled_at) throw new AppError("CONFLICT", "Two-factor sign-in is already on; turn it off first to set up a new app");
  const secret = generateSecret();
  await db.user.update({ where: { id: userId }, data: { totp_secret: sealSecret(secret), totp_last_step: null } });
  const otpauthUrl = generateURI({ issuer: ISSUER, label: user.email, secret });
  const qrSvg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/**
 * Checks a TOTP code against a sealed secret, one 30 s step either side for clock drift. A step
 * once used is refused after (a code seen over a shoulder cannot sign in again).
 */
async function acceptTotp(userId: string, sealed: string, code: string, lastStep: number | null): Promise<boolean> {
  const token = code.replace(/\s/g, "");
  let result;
  try {
    result = await verify({ secret: openSecret(sealed), token, epochTolerance: 30, ...(lastStep !== null ? { afterTimeStep: lastStep } : {}) });
  } catch {
    return false;
  }
  if (!result.valid) return false;
  const step = (result as { timeStep?: number }).timeStep ?? Math.floor(Date.now() / 30_000) + result.delta;
  // Two requests with the same code: only the one that moves the step forward wins.
  const moved = await db.$executeRaw`UPDATE users SET totp_last_step = ${step}
    WHERE id = ${userId}::uuid AND (totp_last_step IS NULL OR totp_last_step < ${step})`;
  return moved === 1;
}

/**
 * Two-factor sign-in on an address nobody proved would let whoever registered someone else's
 * address first keep its owner out after the owner's password reset: it needs a proven address.
 */
function requireProvenAddress(user: { email: string; email_verified_at: Date | null }) {
  requireVerifiedEmail({ userId: "", userEmail: user.email, apiKeyId: null, emailVerified: user.email_verified_at !== null });
}

const wrongPassword = () => new AppError("INVALID_PASSWORD", "The password is not right", [{ path: "password", message: "is not right" }]);

/**
 * Step two: the first code from the app and the password turn it on (a session left open, or a
 * copied cookie, cannot), and answer the recovery codes, shown once.
 */
export async function enableTwoFactor(userId: string, code: string, password: string): Promise<string[]> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, email_verified_at: true, password_hash: true, totp_secret: true, totp_enabled_at: true, totp_last_step: true },
  });
  requireProvenAddress(user);
  // Before the code, which a check would use up.
  if (!(await verifyPassword(password, user.password_hash))) throw wrongPassword();
  if (user.totp_enabled_at) throw new AppError("CONFLICT", "Two-factor sign-in is already on");
  if (!user.totp_secret) throw new AppError("TWO_FACTOR_NOT_SET_UP", "Start the set-up first: scan the QR code, then enter a code");
  if (!(await acceptTotp(userId, user.totp_secret, code, user.totp_last_step))) {
    throw new AppError("INVALID_TWO_FACTOR_CODE", "That code is not right. Enter the 6-digit code your app shows now.");
  }
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await db.$transaction([
    db.recoveryCode.deleteMany({ where: { user_id: userId } }),
    db.recoveryCode.createMany({ data: codes.map((c) => ({ user_id: userId, code_hash: hashRecoveryCode(c) })) }),
    db.user.update({ where: { id: userId }, data: { totp_enabled_at: new Date() } }),
  ]);
  return codes;
}

/** Turning it off needs the password again, so a session left open cannot weaken the account. */
export async function disableTwoFactor(userId: string, password: string): Promise<void> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { password_hash: true, totp_enabled_at: true } });
  if (!(await verifyPassword(password, user.password_hash))) throw wrongPassword();
  await db.$transaction((tx) => clearTwoFactor(tx, userId));
}

/** Two-factor off and its recovery codes gone, in the caller's transaction. */
export async function clearTwoFactor(tx: Prisma.TransactionClient, userId: string) {
  await tx.recoveryCode.deleteMany({ where: { user_id: userId } });
  await tx.user.update({ where: { id: userId }, data: { totp_secret: null, totp_enabled_at: null, totp_last_step: null } });
}

/**
 * The second step of signing in: a 6-digit code from the app, or one of the recovery codes, each
 * good once. Answers which kind worked, or null.
 */
export async function checkSecondFactor(
  user: { id: string; totp_secret: string | null; totp_last_step: number | null },
  code: string,
): Promise<"totp" | "recovery" | null> {
  if (isTotpCode(code)) return user.totp_secret && (await acceptTotp(user.id, user.totp_secret, code, user.totp_last_step)) ? "totp" : null;
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== 10) return null;
  const { count } = await db.recoveryCode.updateMany({
    where: { user_id: user.id, code_hash: hashRecoveryCode(normalized), used_at: null },
    data: { used_at: new Date() },
  });
  return count === 1 ? "recovery" : null;
}

export const remainingRecoveryCodes = (userId: string) => db.recoveryCode.count({ where: { user_id: userId, used_at: null } });
