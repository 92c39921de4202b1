import { z } from "zod";
import { dateTime, id, limits, requiredText, text } from "./common";
import { memberRole } from "./members";
import { timeZone } from "./sending-window";

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
  bounce_pause_threshold: z.number().gt(0).max(1).optional().meta({
    description:
      "Extension: circuit breaker. A sending broadcast pauses itself (`paused_reason` `bounce_rate`) when, over at least 100 attempts, more than this fraction of them hard-bounced; an inbox too, over its recent attempts. Default 0.05 (5 %).",
  }),
  timezone: timeZone.optional().meta({
    description:
      "Extension: the organization's IANA time zone (default `UTC`): sending windows in `contact` zone use it for contacts without one, and business-day delays count in it.",
  }),
  complaint_pause_threshold: z.number().gt(0).max(1).optional().meta({
    description:
      "Extension: circuit breaker. A sending broadcast pauses itself (`paused_reason` `complaint_rate`) when, over at least 100 attempts, complaints pass this fraction of the emails accepted, counting one complaint per recipient and at least 5 recipients. Default 0.003 (0.3 %).",
  }),
});
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInput>;

export const organization = z.object({
  id,
  name: z.string(),
  tracking_enabled: z.boolean(),
  postal_address: z.string().nullable(),
  bounce_pause_threshold: z.number().meta({ description: "Extension: the hard-bounce rate (a fraction) past which broadcasts and inboxes pause themselves." }),
  complaint_pause_threshold: z.number().meta({ description: "Extension: the complaint rate (a fraction) past which broadcasts pause themselves." }),
  timezone: z.string().meta({ description: "Extension: the organization's IANA time zone, `UTC` unless set." }),
  created_at: dateTime,
  updated_at: dateTime,
  role: memberRole.meta({ description: "The caller's role in the organization." }),
});
organization.register(z.globalRegistry, { id: "Organization" });
export type OrganizationRecord = z.infer<typeof organization>;
