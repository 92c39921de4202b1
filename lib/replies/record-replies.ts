import type { PoolClient } from "pg";
import { pool } from "@/lib/db/pool";
import { queueInboxReport } from "@/lib/feedback/process-reports";
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

const FIND_ORIGINALS = `
  SELECT e.id, e.organization_id, e.message_id, e.broadcast_id, e.contact_id, e.inbox_id, e.thread_id, e.from_email, e.subject,
    e.automation_id, e.automation_run_id,
    c.timezone AS contact_timezone, o.timezone AS organization_timezone
  FROM emails e JOIN organizations o ON o.id = e.organization_id
  LEFT JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
  WHERE e.organization_id = $1::uuid AND e.direction = 'outbound' AND e.message_id = ANY($2::text[])
  ORDER BY e.id
  FOR UPDATE OF e`;

const MARK = "UPDATE inboxes SET imap_last_uid = $3 WHERE id = $2::uuid AND organization_id = $1::uuid";

/**
 * The outbound emails of the organization the batch's messages name, locked in one order (two
 * batches answering the same emails wait for each other instead of deadlocking).
 */
async function findOriginals(client: PoolClient, organizationId: string, candidates: string[]): Promise<Map<string, Original>> {
  const { rows } = await client.query<Original>({ name: "replies-find-originals", text: FIND_ORIGINALS, values: [organizationId, candidates] });
  return new Map(rows.map((row) => [row.message_id, row]));
}

/**
 * Runs `work` in a transaction on a connection of its own. It commits durably: a reply recorded is
 * announced (email.replied) by the outbox right after, so a commit PostgreSQL could still lose would
 * let a receiver see the same reply twice under two event ids (measured: the disk wait cost about
 * 23 ms a batch of 50 on the loaded bench machine, not what keeps the bench from its target).
 */
async function inTransaction(work: (client: PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    await work(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch((failure: Error) => (broken = failure));
    throw error;
  } finally {
    client.release(broken);
  }
}

type Reply = Extract<Incoming, { kind: "reply" }> & { position: number };

/** Matches each reply to the email it answers (its first candidate that is one), then records them all in one statement. */
async function recordMatched(tx: PoolClient, inbox: ReceivingInbox, replies: Reply[], mark: number | null, outcomes: ReplyOutcome[]) {
  const candidates = [...new Set(replies.flatMap((r) => r.candidates))];
  const originals = candidates.length > 0 ? await findOriginals(tx, inbox.organization_id, candidates) : new Map<string, Original>();
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
  if (rows.length === 0) {
    if (mark !== null) await tx.query({ name: "replies-mark", text: MARK, values: [inbox.organization_id, inbox.id, mark] });
    return;
  }
  const at = receivedAt.toISOString();
  // Named: prepared once per connection, so the statement is not planned again for every batch.
  const { rows: stored } = await tx.query<{ position: number; email_id: string; thread_id: string }>({
    name: "replies-record",
    text: RECORD_REPLIES,
    values: [inbox.organization_id, inbox.id, at, JSON.stringify(rows), mark, at, [...new Set(rows.map((row) => row.original_id))]],
  });
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

/** Parses the raw messages of a batch (readIncoming), in order. */
export async function readAll(sources: (Buffer | string)[]): Promise<Incoming[]> {
  const messages: Incoming[] = [];
  for (const source of sources) messages.push(await readIncoming(source));
  return messages;
}

/**
 * Records the messages of one batch read from an inbox (as readAll parsed them), in one transaction
 * of a few statements whatever their number (the originals they answer, then record-replies-sql.ts),
 * and moves the inbox's mark to `mark` in it: a crash reads the batch again, and nothing is recorded
 * twice. A message naming one of the organization's outbound emails (In-Reply-To, References) is a
 * reply in that email's thread; a delivery report or complaint is queued for the worker to record
 * against the email it quotes (bounced, delivered, complained), as if it had come to the return
 * path; anything else is left alone. Answers each message's outcome, in order.
 */
export async function recordRead(inbox: ReceivingInbox, messages: Incoming[], mark: number | null = null): Promise<ReplyOutcome[]> {
  const outcomes: ReplyOutcome[] = [];
  const replies: Reply[] = [];
  const reports: Buffer[] = [];
  for (const message of messages) {
    if (message.kind === "reply") replies.push({ ...message, position: outcomes.length });
    if (message.kind === "report") reports.push(message.raw);
    outcomes.push({ result: message.kind === "reply" ? "unmatched" : message.kind });
  }
  if (replies.length === 0 && reports.length === 0) {
    if (mark !== null) await pool.query({ name: "replies-mark", text: MARK, values: [inbox.organization_id, inbox.id, mark] });
    return outcomes;
  }
  await inTransaction(async (tx) => {
    for (const raw of reports) await queueInboxReport(inbox, raw, tx);
    await recordMatched(tx, inbox, replies, mark, outcomes);
  });
  return outcomes;
}

/** Parses and records raw messages of one batch (readAll, then recordRead). */
export async function recordReplies(inbox: ReceivingInbox, sources: (Buffer | string)[], mark: number | null = null): Promise<ReplyOutcome[]> {
  return recordRead(inbox, await readAll(sources), mark);
}
