import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { organizationTheme, type OrganizationTheme } from "@/lib/schemas/organizations";
import { mediaUrl } from "@/lib/media/url";
import { defaultTheme, type RenderContext, type RenderTheme } from "./render";

/** The stored theme with every field present (null where unset); anything unreadable counts as unset. */
export function storedTheme(value: unknown): OrganizationTheme {
  const parsed = organizationTheme.partial().safeParse(value ?? {});
  const theme = parsed.success ? parsed.data : {};
  return {
    primary_color: theme.primary_color ?? null,
    text_color: theme.text_color ?? null,
    background_color: theme.background_color ?? null,
    font_family: theme.font_family ?? null,
    logo_media_id: theme.logo_media_id ?? null,
    footer_html: theme.footer_html ?? null,
  };
}

/** The theme as the renderer takes it: the defaults where the organization set nothing. */
function renderTheme(theme: OrganizationTheme, logoUrl: string | null): RenderTheme {
  return {
    primaryColor: theme.primary_color ?? defaultTheme.primaryColor,
    textColor: theme.text_color ?? defaultTheme.textColor,
    backgroundColor: theme.background_color ?? defaultTheme.backgroundColor,
    fontFamily: theme.font_family ?? defaultTheme.fontFamily,
    logoUrl,
    footerHtml: theme.footer_html,
  };
}

/** What the organization adds to every document it renders: its postal address, its name and its brand. */
export async function renderContextOf(ctx: OrgContext): Promise<RenderContext> {
  const org = await db.organization.findUnique({ where: { id: ctx.organizationId }, select: { name: true, postal_address: true, theme: true } });
  const theme = storedTheme(org?.theme);
  // A deleted logo leaves the emails without one rather than with a broken image.
  const logo = theme.logo_media_id
    ? await db.media.findFirst({ where: { id: theme.logo_media_id, organization_id: ctx.organizationId }, select: { storage_key: true } })
    : null;
  return { postalAddress: org?.postal_address ?? null, brandName: org?.name, theme: renderTheme(theme, logo ? mediaUrl(logo.storage_key) : null) };
}
