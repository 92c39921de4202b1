import { db, type Prisma } from "@/lib/db";
import { queueInboxReport } from "@/lib/feedback/process-reports";
import { markHandled } from "./claim-inboxes";
import { readIncoming, type Incoming } from "./incoming";
import { RECORD_REPLIES, type ReplyRow } from "./record-replies-sql";
import { replyRow, type Original } from "./reply-row";

export type ReceivingInbox = { id: string; organization_id: string };

export type ReplyOutcome =
  | { result: "stored"; emailId: string; repliedToId: string; threadId: string }
  /** An automatic answer (out of office): kept in the thread, not a reply; `heldUntil`: the sender's follow-ups wait until then. */
  | { result: "auto_reply"; emailId: string; repliedToId: string; threadId: string; heldUntil: Date | null }
  /** `report`: a delivery report or complaint, queued for lib/feedback to record. */
  | { result: "duplicate" | "unmatched" | "automatic" | "report" };

/**
 * The outbound emails of the organization the batch's messages name, locked in one order (two
 * batches answering the same emails wait for each other instead of deadlocking).
 */
async function findOriginals(tx: Prisma.TransactionClient, organizationId: string, candidates: string[]): Promise<Map<string, Original>> {
  const rows = await tx.$queryRaw<Original[]>`
    SELECT e.id, e.organization_id, e.message_id, e.broadcast_id, e.contact_id, e.inbox_id, e.thread_id, e.from_email, e.subject,
      c.timezone AS contact_timezone, o.timezone AS organization_timezone
    FROM emails e JOIN organizations o ON o.id = e.organization_id
    LEFT JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
    WHERE e.organization_id = ${organizationId}::uuid AND e.direction = 'outbound' AND e.message_id = ANY(${candidates}::text[])
    ORDER BY e.id
    FOR UPDATE OF e`;
  return new Map(rows.map((row) => [row.message_id, row]));
}

type Reply = Extract<Incoming, { kind: "reply" }> & { position: number };

/** Matches each reply to the email it answers (its first candidate that is one), then records them all in one statement. */
async function recordMatched(tx: Prisma.TransactionClient, inbox: ReceivingInbox, replies: Reply[], mark: number | null, outcomes: ReplyOutcome[]) {
  const originals = await findOriginals(tx, inbox.organization_id, [...new Set(replies.flatMap((r) => r.candidates))]);
  const receivedAt = new Date();
  const rows: ReplyRow[] = [];
  const messageIds = new Set<string>();
  for (const reply of replies) {
    const original = reply.candidates.map((id) => originals.get(id)).find((row) => row !== undefined);
    if (!original) continue;
    const row = replyRow(reply.position, reply.mail, reply.messageId, original, receivedAt);
    // The same message twice in a batch (a mailbox holding a copy): the first is the one stored.
    outcomes[reply.position] = { result: "duplicate" };
    if (messageIds.has(row.message_id)) continue;
    messageIds.add(row.message_id);
    rows.push(row);
  }
  if (rows.length === 0) return mark === null ? undefined : markHandled(inbox, mark, tx);
  const at = receivedAt.toISOString();
  const stored = await tx.$queryRawUnsafe<{ position: number; email_id: string; thread_id: string }[]>(
    RECORD_REPLIES,
    inbox.organization_id,
    inbox.id,
    at,
    JSON.stringify(rows),
    mark,
    at,
  );
  const byPosition = new Map(rows.map((row) => [row.position, row]));
  for (const { position, email_id: emailId, thread_id: threadId } of stored) {
    const row = byPosition.get(position)!;
    const recorded = { emailId, repliedToId: row.original_id, threadId };
    outcomes[position] =
      row.category === "out_of_office"
        ? { result: "auto_reply", ...recorded, heldUntil: row.hold_until ? new Date(row.hold_until) : null }
        : { result: "stored", ...recorded };
  }
}

/**
 * Records the messages of one batch read from an inbox, in one transaction of a few statements
 * whatever their number (the originals they answer, then record-replies-sql.ts), and moves the
 * inbox's mark to `mark` in it: a crash reads the batch again, and nothing is recorded twice. A
 * message naming one of the organization's outbound emails (In-Reply-To, References) is a reply in
 * that email's thread; a delivery report or complaint is queued for the worker to record against the
 * email it quotes (bounced, delivered, complained), as if it had come to the return path; anything
 * else is left alone. Answers each message's outcome, in order.
 */
export async function recordReplies(inbox: ReceivingInbox, sources: (Buffer | string)[], mark: number | null = null): Promise<ReplyOutcome[]> {
  const outcomes: ReplyOutcome[] = [];
  const replies: Reply[] = [];
  const reports: Buffer[] = [];
  for (const source of sources) {
    const message = await readIncoming(source);
    if (message.kind === "reply") replies.push({ ...message, position: outcomes.length });
    if (message.kind === "report") reports.push(message.raw);
    outcomes.push({ result: message.kind === "reply" ? "unmatched" : message.kind });
  }
  if (replies.length === 0 && reports.length === 0) {
    if (mark !== null) await markHandled(inbox, mark);
    return outcomes;
  }
  await db.$transaction(async (tx) => {
    for (const raw of reports) await queueInboxReport(inbox, raw, tx);
    if (replies.length > 0) await recordMatched(tx, inbox, replies, mark, outcomes);
    else if (mark !== null) await markHandled(inbox, mark, tx);
  });
  return outcomes;
}
