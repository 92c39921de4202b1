import type { z } from "zod";
import type { EMAIL_EVENT_TIMES, email, emailDetail, emailListRow, emailPage } from "@/lib/schemas/emails";
import type { thread } from "@/lib/schemas/threads";
import { queryKeys } from "@/lib/client/query-keys";

export type Email = z.infer<typeof email>;
export type EmailDetail = z.infer<typeof emailDetail>;
export type EmailPage = z.infer<typeof emailPage>;
export type EmailListRow = z.infer<typeof emailListRow>;
export type Thread = z.infer<typeof thread>;

export const threadKey = queryKeys.threads.detail;
export const commentsKey = queryKeys.emails.comments;

/** An email's event-time field: the fields the server selects for them (EMAIL_EVENT_TIMES), labelled here. */
export type EmailEventField = keyof typeof EMAIL_EVENT_TIMES;

/** The engagement timestamps of an email, in the order they happen. */
export const emailEvents = [
  { field: "sent_at", label: "Sent" },
  { field: "delivered_at", label: "Delivered" },
  { field: "opened_at", label: "Opened" },
  { field: "clicked_at", label: "Clicked" },
  { field: "bounced_at", label: "Bounced" },
  { field: "complained_at", label: "Complained" },
] as const satisfies readonly { field: EmailEventField; label: string }[];
