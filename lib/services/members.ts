import { canManageMembers, type OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import type { Membership } from "@/lib/generated/prisma/client";
import type { UpdateMemberInput } from "@/lib/schemas/members";
import { recordAudit } from "./audit-log";

type MemberRow = Membership & { user: { email: string; name: string } };

const serialize = (row: MemberRow) => ({
  user_id: row.user_id,
  email: row.user.email,
  name: row.user.name,
  role: row.role,
  created_at: row.created_at,
});

const withUser = { user: { select: { email: true, name: true } } } as const;

/**
 * Locks the owners' memberships for the rest of the transaction and answers their user ids, so two
 * owners demoting or removing each other at once cannot leave the organization without one.
 */
async function lockOwners(tx: Prisma.TransactionClient, organizationId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ user_id: string }[]>`
    SELECT user_id::text AS user_id FROM memberships
    WHERE organization_id = ${organizationId}::uuid AND role = 'owner'
    FOR UPDATE`;
  return rows.map((row) => row.user_id);
}

const lastOwner = (message: string) => new AppError("LAST_OWNER", message);
const ownersOnly = (message: string) => new AppError("FORBIDDEN", message);

/** Every member, in the order they joined. */
export async function listMembers(ctx: OrgContext) {
  const rows = await db.membership.findMany({
    where: { organization_id: ctx.organizationId },
    include: withUser,
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
  });
  return { object: "list" as const, has_more: false as const, data: rows.map(serialize) };
}

export async function updateMemberRole(ctx: OrgContext, userId: string, input: UpdateMemberInput) {
  return db.$transaction(async (tx) => {
    const owners = await lockOwners(tx, ctx.organizationId);
    const target = await tx.membership.findUnique({
      where: { organization_id_user_id: { organization_id: ctx.organizationId, user_id: userId } },
    });
    if (!target) throw notFound("Member");
    if ((target.role === "owner" || input.role === "owner") && !owners.includes(ctx.userId)) {
      throw ownersOnly("Only an owner may grant or take away the owner role");
    }
    if (target.role === "owner" && input.role !== "owner" && owners.length <= 1) {
      throw lastOwner("The last owner cannot be demoted; make another member an owner first");
    }
    const updated = await tx.membership.update({ where: { id: target.id }, data: { role: input.role }, include: withUser });
    if (target.role !== input.role) {
      await recordAudit(ctx, { action: "member.role_changed", target: { type: "user", id: userId }, details: { from: target.role, to: input.role } }, tx);
    }
    return serialize(updated);
  });
}

/** Admins remove anyone but owners (owners remove anyone); every member may leave. */
export async function removeMember(ctx: OrgContext, userId: string) {
  // A UUID in the path may be written in capitals; it still names the caller.
  const leaving = userId.toLowerCase() === ctx.userId.toLowerCase();
  if (!leaving && !canManageMembers(ctx)) throw ownersOnly("Only owners and admins can remove other members");
  return db.$transaction(async (tx) => {
    const owners = await lockOwners(tx, ctx.organizationId);
    const target = await tx.membership.findUnique({
      where: { organization_id_user_id: { organization_id: ctx.organizationId, user_id: userId } },
    });
    if (!target) throw notFound("Member");
    if (target.role === "owner") {
      if (!leaving && !owners.includes(ctx.userId)) throw ownersOnly("Only an owner may remove an owner");
      if (owners.length <= 1) throw lastOwner("The last owner cannot be removed; make another member an owner first");
    }
    await tx.membership.delete({ where: { id: target.id } });
    // Their keys act as them in this organization; without the membership they must stop at once.
    await tx.apiKey.updateMany({
      where: { organization_id: ctx.organizationId, user_id: userId, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    await recordAudit(ctx, { action: "member.removed", target: { type: "user", id: userId }, details: { role: target.role, left: leaving } }, tx);
    return { success: true };
  });
}
