import { z } from "zod";
import { contact, contactEmail, MAX_BATCH } from "./contacts";
import { dateTime, id, limits, requiredText, text } from "./common";
import { filter } from "./filters";

export const segment = z.object({
  id,
  organization_id: id,
  name: z.string(),
  description: z.string().nullable(),
  filter: filter.nullable().meta({ description: "A dynamic segment's filter: its members are the contacts matching it now. null: a static segment." }),
  contacts_count: z.number().int().meta({ description: "Contacts in the segment; for a dynamic one, matching its filter now." }),
  created_at: dateTime,
  updated_at: dateTime,
});
segment.register(z.globalRegistry, { id: "Segment" });

export const createSegmentInput = z.object({
  name: requiredText(limits.name),
  description: text(limits.shortText).nullable().optional(),
  filter: filter.nullable().optional().meta({
    description: "Makes a dynamic segment, whose members are the contacts matching the filter when asked. Without it: a static segment, filled by hand.",
  }),
});
export type CreateSegmentInput = z.infer<typeof createSegmentInput>;

export const updateSegmentInput = z.object({
  name: requiredText(limits.name).optional(),
  description: text(limits.shortText).nullable().optional(),
  filter: filter
    .nullable()
    .optional()
    .meta({ description: "A dynamic segment's new filter. A static segment stays static (400), a dynamic one keeps a filter (null is 400)." }),
});
export type UpdateSegmentInput = z.infer<typeof updateSegmentInput>;

export const MAX_PREVIEW_SAMPLE = 10;

export const previewSegmentInput = z.object({ filter });
export type PreviewSegmentInput = z.infer<typeof previewSegmentInput>;

export const segmentPreview = z.object({
  contacts_count: z.number().int().meta({ description: "Contacts matching the filter now." }),
  sample: z
    .array(contact)
    .max(MAX_PREVIEW_SAMPLE)
    .meta({ description: `Up to ${MAX_PREVIEW_SAMPLE} of them, newest first.` }),
});

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
