import { z } from "zod";
import { dateTime, id, limits, requiredText, text } from "./common";
import { memberRole } from "./members";

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
});
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInput>;

export const organization = z.object({
  id,
  name: z.string(),
  tracking_enabled: z.boolean(),
  postal_address: z.string().nullable(),
  created_at: dateTime,
  updated_at: dateTime,
  role: memberRole.meta({ description: "The caller's role in the organization." }),
});
export type OrganizationRecord = z.infer<typeof organization>;
