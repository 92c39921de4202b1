import { z } from "zod";
import { ThreadCategory } from "@/lib/generated/prisma/enums";
import { dateTime, id, limits, text } from "./common";
import { email } from "./emails";

export const threadParams = z.object({ threadId: id });

const threadCategory = z.enum(ThreadCategory).meta({
  id: "ThreadCategory",
  description: "What the conversation asks of the team: set by rules from each reply, changed by people.",
});

/** Filters of `GET /v1/threads`; paging parameters are read by `parseCursorParams`. */
export const listThreadsQuery = z.object({
  category: threadCategory.optional(),
  inbox_id: id.optional(),
  broadcast_id: id.optional(),
  automation_id: id.optional(),
});
export type ListThreadsQuery = z.infer<typeof listThreadsQuery>;

/** One conversation of the unified inbox. */
export const threadSummary = z
  .object({
    id,
    contact_id: id.nullable(),
    inbox_id: id.nullable(),
    broadcast_id: id.nullable(),
    subject: z.string(),
    category: threadCategory,
    last_message_at: dateTime,
    has_draft: z.boolean(),
    from_email: z.string().nullable().meta({ description: "Who wrote the latest reply." }),
    from_name: z.string().nullable(),
    snippet: z.string().meta({ description: "The latest reply's first 200 characters of text." }),
  })
  .meta({ id: "ThreadSummary" });
export type ThreadSummary = z.infer<typeof threadSummary>;

export const updateThreadInput = z.object({ category: threadCategory });
export type UpdateThreadInput = z.infer<typeof updateThreadInput>;

export const replyToThreadInput = z.object({
  html_content: text(limits.html).optional(),
  text_content: text(limits.text).optional(),
  use_draft: z.boolean().optional().meta({ description: "Send the saved draft (its subject too); content given here replaces the draft's." }),
});
export type ReplyToThreadInput = z.infer<typeof replyToThreadInput>;

/** Saving a draft reply: fields not given keep their saved value. */
export const saveDraftInput = z.object({
  subject: text(limits.subject).nullable().optional().meta({ description: "null: reply with the thread's subject." }),
  html_content: text(limits.html).optional(),
  text_content: text(limits.text).optional(),
});
export type SaveDraftInput = z.infer<typeof saveDraftInput>;

export const draft = z.object({
  id,
  thread_id: id,
  organization_id: id,
  user_id: id.nullable().meta({ description: "Who saved it last." }),
  subject: z.string().nullable(),
  html_content: z.string(),
  text_content: z.string(),
  created_at: dateTime,
  updated_at: dateTime,
});
draft.register(z.globalRegistry, { id: "ThreadDraft" });

export const thread = z.object({
  id,
  organization_id: id,
  subject: z.string(),
  contact_id: id.nullable(),
  inbox_id: id.nullable(),
  broadcast_id: id.nullable(),
  automation_id: id.nullable(),
  category: threadCategory.nullable().meta({ description: "Null until the first reply." }),
  last_message_at: dateTime,
  created_at: dateTime,
  emails: z.array(email).meta({ description: "The conversation, oldest first." }),
  draft: draft.nullable().meta({ description: "The saved draft reply, if any." }),
});
thread.register(z.globalRegistry, { id: "Thread" });
