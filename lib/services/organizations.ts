import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import type { Organization } from "@/lib/generated/prisma/client";
import type { UpdateOrganizationInput } from "@/lib/schemas/organizations";
import { recordAudit } from "./audit-log";

const serialize = (ctx: OrgContext, organization: Organization) => ({
  id: organization.id,
  name: organization.name,
  tracking_enabled: organization.tracking_enabled,
  postal_address: organization.postal_address,
  bounce_pause_threshold: organization.bounce_pause_threshold,
  complaint_pause_threshold: organization.complaint_pause_threshold,
  timezone: organization.timezone,
  created_at: organization.created_at,
  updated_at: organization.updated_at,
  role: ctx.role,
});

export async function getOrganization(ctx: OrgContext) {
  const organization = await db.organization.findUnique({ where: { id: ctx.organizationId } });
  if (!organization) throw notFound("Organization");
  return serialize(ctx, organization);
}

export async function updateOrganization(ctx: OrgContext, input: UpdateOrganizationInput) {
  const data = {
    name: input.name,
    tracking_enabled: input.tracking_enabled,
    postal_address: input.postal_address?.trim() || (input.postal_address === undefined ? undefined : null),
    bounce_pause_threshold: input.bounce_pause_threshold,
    complaint_pause_threshold: input.complaint_pause_threshold,
    timezone: input.timezone,
  };
  // An empty body changes nothing, so updated_at keeps telling when something last did.
  if (Object.values(data).every((value) => value === undefined)) return getOrganization(ctx);
  const { count } = await db.organization.updateMany({ where: { id: ctx.organizationId }, data });
  if (count === 0) throw notFound("Organization");
  await recordAudit(ctx, { action: "organization.updated", target: { type: "organization", id: ctx.organizationId }, details: data });
  return getOrganization(ctx);
}
