import { canManageMembers, overridingSafetyNeedsAdmin, type OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db } from "@/lib/db";
import type { Prisma, Suppression } from "@/lib/generated/prisma/client";
import { normalizeEmail } from "@/lib/schemas/common";
import type { AddSuppressionsInput, ListSuppressionsQuery } from "@/lib/schemas/suppressions";
import { recordAudit } from "./audit-log";

const serialize = (s: Suppression) => ({
  id: s.id,
  organization_id: s.organization_id,
  email: s.email,
  reason: s.reason,
  email_id: s.email_id,
  created_at: s.created_at,
});

// A search value is matched literally, LIKE wildcards included.
const literal = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The organization's suppressed addresses, newest first, by reason and part of the address. */
export async function listSuppressions(ctx: OrgContext, query: ListSuppressionsQuery, page: CursorParams) {
  const where: Prisma.SuppressionWhereInput = { organization_id: ctx.organizationId };
  if (query.reason) where.reason = query.reason;
  if (query.search?.trim()) where.email = { contains: literal(query.search.trim().toLowerCase()) };
  const result = await cursorPage(
    page,
    (args) => db.suppression.findMany({ where: { AND: [where, args.where] }, orderBy: args.orderBy, take: args.take }),
    (id) => db.suppression.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serialize) };
}

/** Suppresses addresses by hand (reason `manual`); an address already suppressed keeps its reason. */
export async function addSuppressions(ctx: OrgContext, input: AddSuppressionsInput) {
  const emails = [...new Set(input.emails.map(normalizeEmail))];
  const { count } = await db.suppression.createMany({
    data: emails.map((email) => ({ organization_id: ctx.organizationId, email, reason: "manual" as const })),
    skipDuplicates: true,
  });
  if (count > 0) await recordAudit(ctx, { action: "suppression.created", target: { type: "suppression" }, details: { added: count, first: emails[0] } });
  return { added: count, total: emails.length };
}

/**
 * Lets an address receive mail again: its suppression goes, and so does its run of soft bounces.
 * Contacts who unsubscribed stay unsubscribed: that is their own choice, changed only by them.
 * A member removes only manual suppressions; one the platform made (a bounce, a complaint, an
 * unsubscribe) is the admins' and owners' to overrule.
 */
export async function removeSuppression(ctx: OrgContext, email: string) {
  const address = normalizeEmail(email);
  const where = { organization_id: ctx.organizationId, email: address, ...(!canManageMembers(ctx) && { reason: "manual" as const }) };
  const count = await db.$transaction(async (tx) => {
    const removed = await tx.suppression.deleteMany({ where });
    if (removed.count > 0) await tx.softBounceStreak.deleteMany({ where: { organization_id: ctx.organizationId, email: address } });
    return removed.count;
  });
  if (count === 0) {
    const kept = await db.suppression.findFirst({ where: { organization_id: ctx.organizationId, email: address }, select: { reason: true } });
    if (kept) throw overridingSafetyNeedsAdmin(`Removing a ${kept.reason} suppression`);
    throw notFound("Suppression");
  }
  await recordAudit(ctx, { action: "suppression.deleted", target: { type: "suppression" }, details: { email: address } });
  return { success: true };
}
