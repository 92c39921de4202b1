import { z } from "zod";
import { ContactBulkJobStatus } from "@/lib/generated/prisma/enums";
import { dateTime, id, tags } from "./common";
import { filter } from "./filters";

/** Ids a request may name, and how many contacts a request changes itself; larger selections become a job. */
export const CONTACT_BULK = { maxIds: 1000, inline: 1000 } as const;

const SEGMENT_ACTIONS = ["add_to_segment", "remove_from_segment"] as const;
const TAG_ACTIONS = ["add_tags", "remove_tags"] as const;
export const contactBulkAction = z.enum([...SEGMENT_ACTIONS, ...TAG_ACTIONS, "unsubscribe", "delete"]);
export type ContactBulkAction = z.infer<typeof contactBulkAction>;

export const contactBulkActionInput = z
  .object({
    action: contactBulkAction,
    contact_ids: z
      .array(id)
      .min(1)
      .max(CONTACT_BULK.maxIds)
      .optional()
      .meta({ description: `1 to ${CONTACT_BULK.maxIds} contacts by id.` }),
    filter: filter.optional().meta({ description: "Every contact matching it (`{ all: [] }`: everyone); give this or `contact_ids`." }),
    segment_id: id.optional().meta({ description: "The static segment, for add_to_segment and remove_from_segment." }),
    tags: tags.min(1).optional().meta({ description: "For add_tags and remove_tags (lowercase)." }),
  })
  .superRefine((value, ctx) => {
    if ((value.contact_ids === undefined) === (value.filter === undefined)) {
      ctx.addIssue({ code: "custom", path: ["contact_ids"], message: "give either contact_ids or filter" });
    }
    if ((SEGMENT_ACTIONS as readonly string[]).includes(value.action) && !value.segment_id) {
      ctx.addIssue({ code: "custom", path: ["segment_id"], message: `is required for ${value.action}` });
    }
    if ((TAG_ACTIONS as readonly string[]).includes(value.action) && !value.tags) {
      ctx.addIssue({ code: "custom", path: ["tags"], message: `are required for ${value.action}` });
    }
  });
export type ContactBulkActionInput = z.infer<typeof contactBulkActionInput>;

const count = z.number().int().min(0);

export const contactBulkJob = z
  .object({
    id,
    action: contactBulkAction,
    status: z.enum(ContactBulkJobStatus),
    total: count.meta({ description: "Contacts the selection matched when the job was made." }),
    processed: count,
    affected: count,
    error: z.string().nullable(),
    created_at: dateTime,
    completed_at: dateTime.nullable(),
  })
  .meta({ id: "ContactBulkJob", description: "A bulk action on a large selection, carried out in the background in batches." });
export type ContactBulkJob = z.infer<typeof contactBulkJob>;

export const contactBulkActionResult = z.object({
  affected: count.meta({ description: "Contacts changed (added, tagged, unsubscribed, deleted…) by this request; 0 when a job does it." }),
  job: contactBulkJob.nullable().meta({ description: "Extension: the background job, for selections over a thousand; null when done." }),
});
