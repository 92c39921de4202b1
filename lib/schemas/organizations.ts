import { z } from "zod";
import { dateTime, id, limits, requiredText, text } from "./common";
import { memberRole } from "./members";
import { timeZone } from "./sending-window";

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #4f46e5");
/** Names, spaces, commas, quotes and hyphens: a CSS font stack that cannot leave its attribute. */
const fontStack = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9 ,'"-]+$/, "must be a font stack like Georgia, 'Times New Roman', serif");

const themeFields = {
  primary_color: color.nullable(),
  text_color: color.nullable(),
  background_color: color.nullable(),
  font_family: fontStack.nullable(),
  logo_media_id: id.nullable(),
  footer_html: text(5000).nullable(),
};

/** The brand every block email is rendered with; null is the default. */
export const organizationTheme = z.object(themeFields).meta({
  id: "OrganizationTheme",
  description:
    "Applied to every email written in the visual editor: buttons and links in `primary_color`, text in `text_color`, the page in " +
    "`background_color`, `font_family` as a CSS font stack, the image `logo_media_id` (GET /v1/media) at the top, and `footer_html` " +
    "(links, bold, italic, line breaks; the rest is removed) in the footer block instead of the postal address. Null: the default.",
});
export type OrganizationTheme = z.infer<typeof organizationTheme>;

export const updateOrganizationInput = z.object({
  name: requiredText(limits.name).optional(),
  tracking_enabled: z
    .boolean()
    .optional()
    .meta({ description: "Open and click tracking. Off: emails sent from then on carry no pixel and their links are left as they are." }),
  postal_address: text(limits.shortText)
    .nullable()
    .optional()
    .meta({ description: "The postal address the footer block of the visual editor shows in marketing mail (at most 1000 characters)." }),
  theme: z.object(themeFields).partial().optional().meta({
    description: "Fields left out keep their value; null resets one. Saving re-renders the drafts, templates and steps written in the visual editor.",
  }),
  public_archive: z.boolean().optional().meta({ description: "A public page lists the broadcasts sent (`/archive/<organization id>`)." }),
  bounce_pause_threshold: z.number().gt(0).max(1).optional().meta({
    description:
      "Extension: a sending broadcast (or an inbox) pauses itself (`bounce_rate`) when over this fraction of its last 100+ attempts hard-bounced. Default 0.05.",
  }),
  timezone: timeZone.optional().meta({
    description:
      "Extension: the organization's IANA time zone (default `UTC`): sending windows in `contact` zone use it for contacts without one, and business-day delays count in it.",
  }),
  complaint_pause_threshold: z.number().gt(0).max(1).optional().meta({
    description:
      "Extension: a sending broadcast pauses itself (`complaint_rate`) when, over 100+ attempts, complaints (one per recipient, at least 5) pass this fraction of the emails accepted. Default 0.003.",
  }),
});
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInput>;

export const organization = z.object({
  id,
  name: z.string(),
  tracking_enabled: z.boolean(),
  postal_address: z.string().nullable(),
  theme: organizationTheme,
  public_archive: z.boolean(),
  bounce_pause_threshold: z.number().meta({ description: "Extension: the hard-bounce rate (a fraction) past which broadcasts and inboxes pause themselves." }),
  complaint_pause_threshold: z.number().meta({ description: "Extension: the complaint rate (a fraction) past which broadcasts pause themselves." }),
  timezone: z.string().meta({ description: "Extension: the organization's IANA time zone, `UTC` unless set." }),
  created_at: dateTime,
  updated_at: dateTime,
  role: memberRole.meta({ description: "The caller's role in the organization." }),
});
organization.register(z.globalRegistry, { id: "Organization" });
export type OrganizationRecord = z.infer<typeof organization>;
