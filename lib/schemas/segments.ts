import { z } from "zod";
import { contactEmail, MAX_BATCH } from "./contacts";
import { dateTime, id, limits, requiredText, text } from "./common";

export const segment = z.object({
  id,
  organization_id: id,
  name: z.string(),
  description: z.string().nullable(),
  contacts_count: z.number().int().meta({ description: "Contacts in the segment." }),
  created_at: dateTime,
  updated_at: dateTime,
});
segment.register(z.globalRegistry, { id: "Segment" });

export const createSegmentInput = z.object({
  name: requiredText(limits.name),
  description: text(limits.shortText).nullable().optional(),
});
export type CreateSegmentInput = z.infer<typeof createSegmentInput>;

export const updateSegmentInput = z.object({
  name: requiredText(limits.name).optional(),
  description: text(limits.shortText).nullable().optional(),
});
export type UpdateSegmentInput = z.infer<typeof updateSegmentInput>;

export const addSegmentContactsInput = z
  .object({
    contact_ids: z.array(id).max(MAX_BATCH).optional().meta({ description: "Ids of contacts of the organization." }),
    emails: z.array(contactEmail).max(MAX_BATCH).optional().meta({ description: "Emails of contacts of the organization." }),
  })
  .refine((input) => (input.contact_ids?.length ?? 0) + (input.emails?.length ?? 0) > 0, {
    message: "give at least one contact id or email",
    path: ["contact_ids"],
  });
export type AddSegmentContactsInput = z.infer<typeof addSegmentContactsInput>;

export const addSegmentContactsResult = z.object({
  added: z.number().int().meta({ description: "Contacts that were not yet in the segment and now are." }),
});

export const segmentContactParams = z.object({ id, contactId: id });
