import { z } from "zod";
import { dateTime, id, limits, text } from "./common";
import { email } from "./emails";

export const threadParams = z.object({ threadId: id });

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

export const thread = z.object({
  id,
  organization_id: id,
  subject: z.string(),
  contact_id: id.nullable(),
  inbox_id: id.nullable(),
  broadcast_id: id.nullable(),
  last_message_at: dateTime,
  created_at: dateTime,
  emails: z.array(email).meta({ description: "The conversation, oldest first." }),
  draft: draft.nullable().meta({ description: "The saved draft reply, if any." }),
});
thread.register(z.globalRegistry, { id: "Thread" });
