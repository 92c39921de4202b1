import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { sanitizeFooterHtml } from "@/lib/email-doc/footer-html";
import { storedTheme } from "@/lib/email-doc/render-context";
import { db } from "@/lib/db";
import type { Organization } from "@/lib/generated/prisma/client";
import type { OrganizationTheme, UpdateOrganizationInput } from "@/lib/schemas/organizations";
import { recordAudit } from "./audit-log";
import { rerenderOrganizationContent } from "./rerender-content";

const serialize = (ctx: OrgContext, organization: Organization) => ({
  id: organization.id,
  name: organization.name,
  tracking_enabled: organization.tracking_enabled,
  postal_address: organization.postal_address,
  theme: storedTheme(organization.theme),
  public_archive: organization.public_archive,
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

/** The stored theme with the given fields changed: the footer sanitized, the logo an image of this organization. */
async function mergedTheme(ctx: OrgContext, input: NonNullable<UpdateOrganizationInput["theme"]>): Promise<OrganizationTheme> {
  const org = await db.organization.findUnique({ where: { id: ctx.organizationId }, select: { theme: true } });
  if (!org) throw notFound("Organization");
  const theme = { ...storedTheme(org.theme), ...input };
  if (input.footer_html !== undefined) theme.footer_html = input.footer_html ? sanitizeFooterHtml(input.footer_html) || null : null;
  if (input.logo_media_id) {
    const logo = await db.media.findFirst({ where: { id: input.logo_media_id, organization_id: ctx.organizationId }, select: { id: true } });
    if (!logo) throw invalidField("theme.logo_media_id", "no such image in this organization's media library");
  }
  return theme;
}

export async function updateOrganization(ctx: OrgContext, input: UpdateOrganizationInput) {
  const data = {
    name: input.name,
    tracking_enabled: input.tracking_enabled,
    postal_address: input.postal_address?.trim() || (input.postal_address === undefined ? undefined : null),
    theme: input.theme ? await mergedTheme(ctx, input.theme) : undefined,
    public_archive: input.public_archive,
    bounce_pause_threshold: input.bounce_pause_threshold,
    complaint_pause_threshold: input.complaint_pause_threshold,
    timezone: input.timezone,
  };
  // An empty body changes nothing, so updated_at keeps telling when something last did.
  if (Object.values(data).every((value) => value === undefined)) return getOrganization(ctx);
  const { count } = await db.organization.updateMany({ where: { id: ctx.organizationId }, data });
  if (count === 0) throw notFound("Organization");
  // The audit log keeps flat values: the theme as its JSON.
  const details = { ...data, theme: data.theme && JSON.stringify(data.theme) };
  await recordAudit(ctx, { action: "organization.updated", target: { type: "organization", id: ctx.organizationId }, details });
  // Every block email shows the brand and the address: what can still be sent is rendered again.
  if (data.theme !== undefined || data.postal_address !== undefined) await rerenderOrganizationContent(ctx);
  return getOrganization(ctx);
}
