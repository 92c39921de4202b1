import { recordReplies, type ReceivingInbox, type ReplyOutcome } from "./record-replies";

export type { ReceivingInbox, ReplyOutcome } from "./record-replies";

/**
 * Records one raw RFC 822 message that arrived in an inbox, as a batch of one (record-replies.ts):
 * a reply to one of the organization's outbound emails is stored in that email's thread, with
 * `replied_at` on the email answered, the broadcast's `replied_count` (once per recipient), the
 * `email.replied` event — and the recipient leaves the sequence, and with `stop_on_company_reply`
 * every colleague at the sender's domain too (not at a free-mail domain). An automatic answer is kept
 * in the thread and holds the sender's follow-ups. A delivery report or complaint is queued for
 * lib/feedback. Receiving the same message twice stores it once.
 */
export async function recordRawReply(inbox: ReceivingInbox, source: Buffer | string): Promise<ReplyOutcome> {
  const [outcome] = await recordReplies(inbox, [source]);
  return outcome;
}
