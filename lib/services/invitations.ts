import { createHash, randomBytes } from "node:crypto";
import { requireVerifiedEmail, type OrgContext, type UserContext } from "@/lib/domain/context";
import { AppError, notFound, rateLimited } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import type { Invitation } from "@/lib/generated/prisma/client";
import type { InvitationStatus } from "@/lib/generated/prisma/enums";
import { invitationEmail } from "@/lib/mail/invitation-email";
import { sendSystemMail } from "@/lib/mail/send-system-mail";
import { normalizeEmail } from "@/lib/schemas/common";
import type { CreateInvitationInput } from "@/lib/schemas/invitations";
import { recordAudit } from "./audit-log";
import { errorField, log } from "@/lib/log";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Invitation mail goes out from the platform's own sender to any address a tenant types, so it is
 * a spam channel unless bounded: each organization sends at most `invitationsPerDay` invitation
 * emails (new and resent) in any 24 hours, and each user `invitationsPerUserPerDay` across all
 * their organizations (a second organization had doubled one user's allowance). The organization's
 * lock is taken before the user's, everywhere, so two requests never wait on each other in turn.
 */
async function takeDailyInvitationSlot(tx: Prisma.TransactionClient, ctx: OrgContext) {
  await takeOrganizationInvitationSlot(tx, ctx.organizationId);
  await takeUserInvitationSlot(tx, ctx.userId, ctx.organizationId);
}

/** The user's count, from a row per invitation email under the user's lock, so parallel requests cannot overshoot. */
async function takeUserInvitationSlot(tx: Prisma.TransactionClient, userId: string, organizationId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitation-quota-user:${userId}`}::text))`;
  const since = new Date(Date.now() - DAY_MS);
  await tx.invitationMail.deleteMany({ where: { user_id: userId, created_at: { lte: since } } });
  const sent = await tx.invitationMail.aggregate({ where: { user_id: userId }, _count: true, _min: { created_at: true } });
  if (sent._count >= env.invitationsPerUserPerDay) {
    const wait = (sent._min.created_at?.getTime() ?? Date.now()) + DAY_MS - Date.now();
    throw rateLimited(
      `You have sent ${env.invitationsPerUserPerDay} invitations in the last 24 hours, across all your organizations, the most allowed. Try again in ${Math.max(1, Math.ceil(wait / 3_600_000))} hours.`,
      wait / 1000,
    );
  }
  await tx.invitationMail.create({ data: { user_id: userId, organization_id: organizationId } });
}

/** The organization's count, from the invitations' own rows, under the organization's lock. */
async function takeOrganizationInvitationSlot(tx: Prisma.TransactionClient, organizationId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitation-quota:${organizationId}`}::text))`;
  const since = new Date(Date.now() - DAY_MS);
  const rows = await tx.$queryRaw<{ sent: number; oldest: Date | null }[]>`
    SELECT (count(*) FILTER (WHERE created_at > ${since}) + coalesce(sum(resend_count) FILTER (WHERE resend_window_started_at > ${since}), 0))::int AS sent,
           min(created_at) FILTER (WHERE created_at > ${since}) AS oldest
    FROM invitations WHERE organization_id = ${organizationId}::uuid AND (created_at > ${since} OR resend_window_started_at > ${since})`;
  const { sent, oldest } = rows[0] ?? { sent: 0, oldest: null };
  if (sent >= env.invitationsPerDay) {
    const wait = oldest ? oldest.getTime() + DAY_MS - Date.now() : DAY_MS;
    throw rateLimited(
      `This organization has sent ${env.invitationsPerDay} invitations in the last 24 hours, the most allowed. Try again in ${Math.ceil(wait / 3_600_000)} hours.`,
      wait / 1000,
    );
  }
}

// Only the hash is stored, so a database leak does not hand out working invitation links.
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
const expiryFromNow = () => new Date(Date.now() + INVITATION_TTL_MS);

const withInviter = { inviter: { select: { name: true, email: true } } } as const;
type InvitationWithInviter = Invitation & { inviter: { name: string; email: string } };

/** A pending invitation past its expiry is expired, whether or not the row says so yet. */
function effectiveStatus(invitation: Pick<Invitation, "status" | "expires_at">, now = new Date()): InvitationStatus {
  return invitation.status === "pending" && invitation.expires_at <= now ? "expired" : invitation.status;
}

function serialize(invitation: InvitationWithInviter) {
  return {
    id: invitation.id,
    organization_id: invitation.organization_id,
    email: invitation.email,
    role: invitation.role,
    status: effectiveStatus(invitation),
    invited_by: invitation.invited_by,
    inviter_name: invitation.inviter.name,
    inviter_email: invitation.inviter.email,
    expires_at: invitation.expires_at,
    created_at: invitation.created_at,
    updated_at: invitation.updated_at,
  };
}

const markExpired = (where: { id?: string; organization_id?: string; email?: string }) =>
  db.invitation.updateMany({ where: { ...where, status: "pending", expires_at: { lte: new Date() } }, data: { status: "expired" } });

const notPending = (status: InvitationStatus) => new AppError("INVITATION_NOT_PENDING", `This invitation is ${status}, not pending`);

/** Why an invitation that is not pending cannot be accepted. */
function cannotAccept(status: InvitationStatus): AppError {
  if (status === "accepted") return new AppError("INVITATION_ALREADY_ACCEPTED", "This invitation has already been accepted");
  if (status === "expired") return new AppError("INVITATION_EXPIRED", "This invitation has expired. Ask for a new one.");
  return notPending(status);
}

/** Mails the link for `token` and answers the invitation record. */
async function mailInvitation(invitationId: string, token: string) {
  const invitation = await db.invitation.findUniqueOrThrow({
    where: { id: invitationId },
    include: { ...withInviter, organization: { select: { name: true } } },
  });
  const mail = invitationEmail({
    to: invitation.email,
    inviterName: invitation.inviter.name,
    inviterEmail: invitation.inviter.email,
    organizationName: invitation.organization.name,
    role: invitation.role,
    link: `${env.appUrl}/invitations/${token}`,
    expiresAt: invitation.expires_at,
  });
  try {
    await sendSystemMail(mail);
  } catch (error) {
    log.error({ err: errorField(error) }, "an invitation email could not be sent");
    throw new AppError("MAIL_DELIVERY_FAILED", "The invitation email could not be sent. Try again later.");
  }
  return serialize(invitation);
}

export async function createInvitation(ctx: OrgContext, input: CreateInvitationInput) {
  requireVerifiedEmail(ctx);
  const email = normalizeEmail(input.email);
  const token = newToken();
  const created = await db.$transaction(async (tx) => {
    await takeDailyInvitationSlot(tx, ctx);
    // Two admins inviting the same address at the same moment must not both pass the pending check.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitation:${ctx.organizationId}:${email}`}::text))`;
    const member = await tx.membership.findFirst({
      where: { organization_id: ctx.organizationId, user: { email: { equals: email, mode: "insensitive" } } },
      select: { id: true },
    });
    if (member) {
      throw new AppError("ALREADY_MEMBER", `${email} is already a member of this organization`, [{ path: "email", message: "is already a member" }]);
    }
    await tx.invitation.updateMany({
      where: { organization_id: ctx.organizationId, email, status: "pending", expires_at: { lte: new Date() } },
      data: { status: "expired" },
    });
    const pending = await tx.invitation.findFirst({ where: { organization_id: ctx.organizationId, email, status: "pending" }, select: { id: true } });
    if (pending) {
      throw new AppError("CONFLICT", `${email} already has a pending invitation`, [{ path: "email", message: "already has a pending invitation" }]);
    }
    const row = await tx.invitation.create({
      data: {
        organization_id: ctx.organizationId,
        email,
        role: input.role,
        token_hash: hashToken(token),
        invited_by: ctx.userId,
        expires_at: expiryFromNow(),
      },
    });
    await recordAudit(ctx, { action: "invitation.created", target: { type: "invitation", id: row.id }, details: { email, role: input.role } }, tx);
    return row;
  });
  try {
    return await mailInvitation(created.id, token);
  } catch (error) {
    // An invitation nobody was told about would only block the next attempt with a 409.
    await db.invitation.delete({ where: { id: created.id } });
    throw error;
  }
}

/** Pending, unexpired invitations, newest first; the expired ones are marked so on the way. */
export async function listInvitations(ctx: OrgContext) {
  await markExpired({ organization_id: ctx.organizationId });
  const rows = await db.invitation.findMany({
    where: { organization_id: ctx.organizationId, status: "pending", expires_at: { gt: new Date() } },
    include: withInviter,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
  });
  return { invitations: rows.map(serialize) };
}

async function findPending(ctx: OrgContext, id: string) {
  const invitation = await db.invitation.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!invitation) throw notFound("Invitation");
  const status = effectiveStatus(invitation);
  if (status === "expired") await markExpired({ id });
  if (status !== "pending") throw notPending(status);
  return invitation;
}

/**
 * A new link (the old one stops working) and a fresh seven days, mailed again: at most
 * `invitationResendsPerDay` times a day per invitation, within the organization's daily quota.
 */
export async function resendInvitation(ctx: OrgContext, id: string) {
  requireVerifiedEmail(ctx);
  const invitation = await findPending(ctx, id);
  const token = newToken();
  await db.$transaction(async (tx) => {
    await takeDailyInvitationSlot(tx, ctx);
    const limit = env.invitationResendsPerDay;
    // One statement counts the resend and checks the cap, restarting the window after a day.
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE invitations SET
        token_hash = ${hashToken(token)},
        expires_at = ${expiryFromNow()},
        updated_at = now(),
        resend_count = CASE WHEN resend_window_started_at IS NULL OR resend_window_started_at <= now() - interval '1 day' THEN 1 ELSE resend_count + 1 END,
        resend_window_started_at = CASE WHEN resend_window_started_at IS NULL OR resend_window_started_at <= now() - interval '1 day' THEN now() ELSE resend_window_started_at END
      WHERE id = ${invitation.id}::uuid AND organization_id = ${ctx.organizationId}::uuid AND status = 'pending'
        AND (resend_window_started_at IS NULL OR resend_window_started_at <= now() - interval '1 day' OR resend_count < ${limit})
      RETURNING id::text AS id`;
    if (rows.length === 0) {
      const current = await tx.invitation.findFirst({ where: { id: invitation.id, organization_id: ctx.organizationId } });
      if (!current || current.status !== "pending") throw new AppError("INVITATION_NOT_PENDING", "This invitation is no longer pending");
      const wait = (current.resend_window_started_at?.getTime() ?? Date.now()) + DAY_MS - Date.now();
      throw rateLimited(
        `This invitation was already resent ${limit} times today. Try again in ${Math.max(1, Math.ceil(wait / 3_600_000))} hours.`,
        wait / 1000,
      );
    }
    await recordAudit(ctx, { action: "invitation.resent", target: { type: "invitation", id: invitation.id }, details: { email: invitation.email } }, tx);
  });
  return mailInvitation(invitation.id, token);
}

export async function cancelInvitation(ctx: OrgContext, id: string) {
  const invitation = await findPending(ctx, id);
  await db.$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: invitation.id, organization_id: ctx.organizationId, status: "pending" },
      data: { status: "cancelled" },
    });
    if (count === 0) throw new AppError("INVITATION_NOT_PENDING", "This invitation is no longer pending");
    await recordAudit(ctx, { action: "invitation.cancelled", target: { type: "invitation", id: invitation.id }, details: { email: invitation.email } }, tx);
  });
  return { success: true };
}

/**
 * Joins the caller to the invitation's organization. The invitation is bound to its address, so
 * a forwarded link is useless to anyone signed in with another email.
 */
export async function acceptInvitation(ctx: UserContext, token: string) {
  // Without a proven address, anyone who saw the link could sign up as the invitee and join.
  requireVerifiedEmail(ctx);
  const invitation = await db.invitation.findUnique({ where: { token_hash: hashToken(token) } });
  if (!invitation) throw notFound("Invitation");
  const status = effectiveStatus(invitation);
  if (status === "expired") await markExpired({ id: invitation.id });
  if (status !== "pending") throw cannotAccept(status);
  if (normalizeEmail(ctx.userEmail) !== normalizeEmail(invitation.email)) {
    throw new AppError("INVITATION_EMAIL_MISMATCH", `This invitation was sent to ${invitation.email}; sign in with that address to accept it`);
  }
  const alreadyMember = () => new AppError("ALREADY_MEMBER", "You are already a member of this organization");
  const membership = { organization_id: invitation.organization_id, user_id: ctx.userId };
  if (await db.membership.findUnique({ where: { organization_id_user_id: membership }, select: { id: true } })) throw alreadyMember();

  return db.$transaction(async (tx) => {
    const now = new Date();
    // Only one of two simultaneous accepts finds the row still pending, and a link replaced by a
    // resend in the meantime no longer matches.
    const { count } = await tx.invitation.updateMany({
      where: { id: invitation.id, token_hash: invitation.token_hash, status: "pending", expires_at: { gt: now } },
      data: { status: "accepted", accepted_by: ctx.userId, accepted_at: now },
    });
    if (count === 0) {
      const current = await tx.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
      if (current.token_hash !== invitation.token_hash) throw notFound("Invitation");
      throw cannotAccept(effectiveStatus(current, now));
    }
    const joined = await tx.membership.createMany({ data: { ...membership, role: invitation.role }, skipDuplicates: true });
    if (joined.count === 0) throw alreadyMember();
    await recordAudit(
      { ...ctx, organizationId: invitation.organization_id },
      { action: "invitation.accepted", target: { type: "invitation", id: invitation.id }, details: { role: invitation.role } },
      tx,
    );
    return { success: true, organization_id: invitation.organization_id, role: invitation.role };
  });
}

/** What the accept page shows for a link, without accepting it; null when the link is unknown. */
export async function describeInvitation(token: string) {
  if (token.length < 32 || token.length > 200) return null;
  const invitation = await db.invitation.findUnique({
    where: { token_hash: hashToken(token) },
    include: { ...withInviter, organization: { select: { id: true, name: true } } },
  });
  if (!invitation) return null;
  return {
    status: effectiveStatus(invitation),
    email: invitation.email,
    role: invitation.role,
    organization: invitation.organization,
    inviter: invitation.inviter,
    expires_at: invitation.expires_at,
  };
}
