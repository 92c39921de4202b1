import type { OrgContext } from "@/lib/domain/context";
import { AppError, rateLimited } from "@/lib/domain/errors";
import { hashPassword, verifyDummyPassword, verifyPassword } from "@/lib/auth/password";
import { accountKey, beginSignInAttempt, ipKey, ACCOUNT_POLICY, IP_POLICY, signInSucceeded, uncountAttempt } from "@/lib/auth/sign-in-throttle";
import { checkSecondFactor, disableTwoFactor, enableTwoFactor, remainingRecoveryCodes } from "@/lib/auth/two-factor";
import { db, type Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { alreadyRegisteredEmail, passwordResetEmail, verificationEmail } from "@/lib/mail/account-emails";
import { mailAfterAnswer } from "@/lib/mail/after-answer";
import { sendSystemMail, type SystemMail } from "@/lib/mail/send-system-mail";
import { normalizeEmail } from "@/lib/schemas/common";
import type { SignUpInput } from "@/lib/schemas/accounts";
import { consumeAccountToken, issueAccountToken, linkCooldownSeconds } from "./account-tokens";
import { reclaimAddress } from "./address-reclaim";
import { recordAudit, recordUserAudit } from "./audit-log";
import { errorField, log } from "@/lib/log";

/** Account mail is best effort: the answer to the request must not depend on the relay. */
async function mailQuietly(mail: SystemMail) {
  try {
    await sendSystemMail(mail);
  } catch (error) {
    log.error({ err: errorField(error) }, "an account email could not be sent");
  }
}

const verifyLink = (token: string, callbackUrl?: string) =>
  `${env.appUrl}/verify-email/${token}${callbackUrl ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ""}`;
const resetLink = (token: string) => `${env.appUrl}/reset-password/${token}`;

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string; session_version: number } }
  | { ok: false; reason: "invalid" | "two_factor_required" | "invalid_code" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number; locked: boolean };

/**
 * Checks a sign-in: throttled per account and per address (exponential backoff, then a lock),
 * the same scrypt work whether or not the address has an account, and the second factor for users
 * who turned it on. Every failure is recorded in the audit log: in the user's organizations when
 * the address is known, and nowhere a tenant can see when it is not.
 */
export async function signInWithPassword(input: { email: string; password: string; code?: string | null; ip: string | null }): Promise<SignInResult> {
  const email = normalizeEmail(input.email).slice(0, 320);
  const account = accountKey(email);
  const keys = [{ key: account, policy: ACCOUNT_POLICY }, ...(input.ip ? [{ key: ipKey(input.ip), policy: IP_POLICY }] : [])];
  const attempt = await beginSignInAttempt(keys);
  if (!attempt.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: attempt.retryAfterSeconds, locked: attempt.locked };

  const user = await db.user.findUnique({ where: { email } });
  const passwordOk = user ? await verifyPassword(input.password, user.password_hash) : await verifyDummyPassword(input.password);
  const actor = { userId: user?.id ?? null, userEmail: email, ip: input.ip };
  const fail = async (reason: "invalid" | "invalid_code", why: string): Promise<SignInResult> => {
    const entry = { action: "user.sign_in_failed" as const, details: { reason: why } };
    if (user) await recordUserAudit({ ...actor, userId: user.id }, entry);
    else await recordAudit({ ...actor, organizationId: null }, entry);
    if (user && attempt.lockedNow) await recordUserAudit({ ...actor, userId: user.id }, { action: "user.sign_in_locked" });
    return { ok: false, reason };
  };
  if (!user || !passwordOk) return fail("invalid", user ? "wrong password" : "unknown address");

  if (user.totp_enabled_at) {
    const code = input.code?.trim();
    if (!code) {
      await uncountAttempt(keys);
      return { ok: false, reason: "two_factor_required" };
    }
    const used = await checkSecondFactor(user, code);
    if (!used) return fail("invalid_code", "wrong two-factor code");
    if (used === "recovery") await recordUserAudit({ ...actor, userId: user.id }, { action: "user.recovery_code_used" });
  }
  await signInSucceeded(keys, account);
  await recordUserAudit({ ...actor, userId: user.id }, { action: "user.signed_in", details: { two_factor: Boolean(user.totp_enabled_at) } });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, session_version: user.session_version } };
}

/**
 * A new organization whose first user is its owner (the operator command line, tests, the
 * benchmark). The operator vouches for the address, so the user is verified.
 */
export async function createOrganizationWithOwner(input: { name: string; email: string; password?: string; userName?: string }) {
  const email = normalizeEmail(input.email);
  const existing = await db.user.findUnique({ where: { email } });
  const password_hash = existing ? existing.password_hash : await hashPassword(input.password ?? crypto.randomUUID());
  return db.$transaction(async (tx) => {
    const user = existing
      ? await tx.user.update({ where: { id: existing.id }, data: { email_verified_at: existing.email_verified_at ?? new Date() } })
      : await tx.user.create({ data: { email, name: input.userName ?? "", password_hash, email_verified_at: new Date() } });
    const organization = await tx.organization.create({ data: { name: input.name } });
    await tx.membership.create({ data: { organization_id: organization.id, user_id: user.id, role: "owner" } });
    return { organization, user };
  });
}

/**
 * Dashboard sign-up. It answers the same whether or not the address has an account; the mail
 * tells the owner of the address which it was (a verification link, or "someone tried to sign up
 * with your address"). Someone arriving from an invitation joins that organization by accepting
 * it once verified, so they get no organization of their own; everyone else owns a new one.
 */
export async function signUp(input: SignUpInput, meta: { ip: string | null } = { ip: null }): Promise<void> {
  const email = normalizeEmail(input.email);
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  // The same scrypt work either way, so the time taken does not tell either.
  const password_hash = await hashPassword(input.password);
  if (existing) return tellExistingAccount(existing.id, email);
  const orgName = input.organization_name ?? `${input.name}'s organization`;
  let token: string;
  try {
    token = await db.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, name: input.name, password_hash } });
      if (!input.invitation_token) {
        const organization = await tx.organization.create({ data: { name: orgName, created_by: user.id } });
        await tx.membership.create({ data: { organization_id: organization.id, user_id: user.id, role: "owner" } });
        await recordAudit(
          { organizationId: organization.id, userId: user.id, userEmail: email, ip: meta.ip },
          { action: "organization.created", target: { type: "organization", id: organization.id } },
          tx,
        );
      }
      return issueAccountToken(user.id, "verify_email", tx);
    });
  } catch (error) {
    // Two sign-ups with one new address at once: the second is told nothing different.
    if ((error as { code?: string }).code === "P2002") return;
    throw error;
  }
  await mailQuietly(verificationEmail(email, verifyLink(token, input.invitation_token ? `/invitations/${input.invitation_token}` : undefined)));
}

async function tellExistingAccount(userId: string, email: string) {
  if ((await linkCooldownSeconds(userId, "reset_password")) > 0) return;
  const token = await issueAccountToken(userId, "reset_password");
  await mailQuietly(alreadyRegisteredEmail(email, `${env.appUrl}/sign-in?email=${encodeURIComponent(email)}`, resetLink(token)));
}

/** Opens a verification link: the address is proven. */
export async function verifyEmail(token: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const userId = await consumeAccountToken(token, "verify_email", tx);
    if (!userId)
      throw new AppError(
        "INVALID_TOKEN",
        "This verification link does not work: it was used already, has expired, or is incomplete. Send a new one from the dashboard.",
      );
    const user = await tx.user.update({ where: { id: userId }, data: { email_verified_at: new Date() }, select: { id: true, email: true } });
    await recordUserAudit({ userId: user.id, userEmail: user.email, ip }, { action: "user.email_verified" }, tx);
    return { success: true, email: user.email };
  });
}

/** Mails a new verification link to the signed-in user (at most three an hour). */
export async function resendVerification(userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, email_verified_at: true } });
  if (user.email_verified_at) return { success: true, already_verified: true };
  const wait = await linkCooldownSeconds(userId, "verify_email");
  if (wait > 0) throw rateLimited(`A verification email was sent a few times already; try again in ${Math.ceil(wait / 60)} minutes`, wait);
  const token = await issueAccountToken(userId, "verify_email");
  await mailQuietly(verificationEmail(user.email, verifyLink(token)));
  return { success: true, already_verified: false };
}

/**
 * "Forgot password?": mails a reset link when the address has an account, and answers the same,
 * at once, either way: looking the address up, making the link and mailing it happen after the
 * answer, so its timing does not tell (159 ms against 6 ms when they came before).
 */
export async function requestPasswordReset(rawEmail: string) {
  const email = normalizeEmail(rawEmail);
  mailAfterAnswer("password reset", async () => {
    const user = await db.user.findUnique({ where: { email }, select: { id: true } });
    if (!user || (await linkCooldownSeconds(user.id, "reset_password")) > 0) return;
    const token = await issueAccountToken(user.id, "reset_password");
    await mailQuietly(passwordResetEmail(email, resetLink(token)));
  });
  return { success: true };
}

/**
 * Sets a new password from a reset link: the link works once, every session ends, the account's
 * sign-in lock is lifted, and the address counts as proven (the link reached its inbox). When
 * nobody had proven it before, the owner is taking it back: what the unproven holder set up stops
 * acting (address-reclaim.ts).
 */
export async function resetPassword(token: string, newPassword: string, ip: string | null) {
  const password_hash = await hashPassword(newPassword);
  const user = await db.$transaction(async (tx) => {
    const userId = await consumeAccountToken(token, "reset_password", tx);
    if (!userId) throw new AppError("INVALID_TOKEN", "This reset link does not work: it was used already, has expired, or is incomplete. Ask for a new one.");
    // Locked, so a verification link opened at the same moment cannot make this look like a proven account's reset.
    const [current] = await tx.$queryRaw<{ email_verified_at: Date | null }[]>`
      SELECT email_verified_at FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
    const updated = await tx.user.update({
      where: { id: userId },
      data: { password_hash, session_version: { increment: 1 }, email_verified_at: current.email_verified_at ?? new Date() },
      select: { id: true, email: true },
    });
    await voidResetLinks(tx, userId);
    await tx.signInThrottle.deleteMany({ where: { key: accountKey(updated.email) } });
    await recordUserAudit({ userId: updated.id, userEmail: updated.email, ip }, { action: "user.password_reset" }, tx);
    if (!current.email_verified_at) await reclaimAddress(tx, updated, ip);
    return updated;
  });
  return { success: true, email: user.email };
}

/** Reset links still outstanding stop working: each one was mailed for a password that is gone now. */
const voidResetLinks = (tx: Prisma.TransactionClient, userId: string) =>
  tx.accountToken.updateMany({ where: { user_id: userId, purpose: "reset_password", used_at: null }, data: { used_at: new Date() } });

/**
 * A new password from the settings: the current one is asked again, every session ends, and reset
 * links mailed before stop working (whoever reads that mail later must not undo the change).
 */
export async function changePassword(userId: string, input: { current_password: string; new_password: string }, ip: string | null) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, password_hash: true } });
  if (!(await verifyPassword(input.current_password, user.password_hash))) {
    throw new AppError("INVALID_PASSWORD", "The current password is not right", [{ path: "current_password", message: "is not right" }]);
  }
  const password_hash = await hashPassword(input.new_password);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { password_hash, session_version: { increment: 1 } } });
    await voidResetLinks(tx, userId);
    await recordUserAudit({ userId, userEmail: user.email, ip }, { action: "user.password_changed" }, tx);
  });
  return { success: true };
}

/** Ends every session of the user, this one included, at its next request. */
export async function signOutEverywhere(userId: string, ip: string | null) {
  await db.$transaction(async (tx) => {
    const user = await tx.user.update({ where: { id: userId }, data: { session_version: { increment: 1 } }, select: { email: true } });
    await recordUserAudit({ userId, userEmail: user.email, ip }, { action: "user.sessions_revoked" }, tx);
  });
  return { success: true };
}

/** What the account settings show. */
export async function accountProfile(userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    email_verified: user.email_verified_at !== null,
    two_factor_enabled: user.totp_enabled_at !== null,
    recovery_codes_remaining: user.totp_enabled_at ? await remainingRecoveryCodes(user.id) : 0,
  };
}

export async function updateProfile(userId: string, input: { name: string }) {
  await db.user.update({ where: { id: userId }, data: { name: input.name } });
  return accountProfile(userId);
}

async function listUserOrganizations(userId: string) {
  const memberships = await db.membership.findMany({
    where: { user_id: userId },
    include: { organization: { select: { id: true, name: true } } },
    orderBy: { created_at: "asc" },
  });
  return memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role }));
}

/**
 * "New organization": the user owns it. Each organization has allowances of its own (invitations,
 * test sends, request rates), so a user creates at most `organizationsPerUser`, counted under the
 * user's lock so parallel requests cannot overshoot.
 */
export async function createOrganizationForUser(userId: string, name: string, ip: string | null = null) {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`organizations-created:${userId}`}::text))`;
    const created = await tx.organization.count({ where: { created_by: userId } });
    if (created >= env.organizationsPerUser) {
      throw new AppError(
        "FORBIDDEN",
        `You have created ${env.organizationsPerUser} organizations, the most one person may. Work in one of them, or ask the platform's operator.`,
      );
    }
    const organization = await tx.organization.create({ data: { name, created_by: userId } });
    await tx.membership.create({ data: { organization_id: organization.id, user_id: userId, role: "owner" } });
    await recordAudit(
      { organizationId: organization.id, userId, ip },
      { action: "organization.created", target: { type: "organization", id: organization.id } },
      tx,
    );
    return { id: organization.id, name: organization.name, role: "owner" as const };
  });
}

export async function getCurrentUser(ctx: Pick<OrgContext, "userId">) {
  const user = await db.user.findUniqueOrThrow({ where: { id: ctx.userId } });
  return { id: user.id, email: user.email, name: user.name, email_verified: user.email_verified_at !== null };
}

/**
 * What the dashboard needs about who is signed in: the user, every organization with the role
 * held there, and the one in use (the wanted one when the user is a member, else the first).
 */
export async function describeSession(userId: string, wantedOrganizationId: string | null) {
  const row = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, name: true, email_verified_at: true } });
  if (!row) return null;
  const user = { id: row.id, email: row.email, name: row.name, email_verified: row.email_verified_at !== null };
  const organizations = await listUserOrganizations(userId);
  const current = organizations.find((o) => o.id === wantedOrganizationId) ?? organizations[0] ?? null;
  return { user, organizations, current_organization_id: current?.id ?? null, role: current?.role ?? null };
}

/** The user's role in an organization, or null when not a member. */
export async function membershipRole(userId: string, organizationId: string) {
  const membership = await db.membership.findUnique({
    where: { organization_id_user_id: { organization_id: organizationId, user_id: userId } },
    select: { role: true },
  });
  return membership?.role ?? null;
}

/** Whether an account exists for an address (the invitation page offers sign-in or sign-up). */
export async function isRegistered(email: string) {
  return (await db.user.count({ where: { email: normalizeEmail(email) } })) > 0;
}

/** Confirms two-factor set-up with a first code; answers the recovery codes, shown once. */
export async function turnOnTwoFactor(userId: string, input: { code: string; password: string }, ip: string | null) {
  const recoveryCodes = await enableTwoFactor(userId, input.code, input.password);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  await recordUserAudit({ userId, userEmail: user.email, ip }, { action: "user.two_factor_enabled" });
  return { success: true, recovery_codes: recoveryCodes };
}

export async function turnOffTwoFactor(userId: string, password: string, ip: string | null) {
  await disableTwoFactor(userId, password);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  await recordUserAudit({ userId, userEmail: user.email, ip }, { action: "user.two_factor_disabled" });
  return { success: true };
}
