import type { ImapFlow } from "imapflow";
import { errorField, log } from "@/lib/log";
import { markHandled, type ImapInbox } from "./claim-inboxes";
import { fetchSources, planReads, readHeaders } from "./fetch-messages";
import { newUids } from "./new-uids";
import { PollLimitError, type PollGuard } from "./poll-guard";
import { HEADER_PEEK_BYTES, type PollLimits } from "./poll-limits";
import { recordBatch } from "./record-batch";

/** Messages whose headers one FETCH reads, and whose replies one transaction records. */
const HEADER_BATCH = 50;

/**
 * A batch's FETCH of messages failed (a limit of the poll, the connection lost): what arrived before
 * the first message that did not is recorded, and the mark moves past it — and past that message too
 * when the server sent more of it than asked for, or it would stop every poll there.
 */
async function recordBeforeFailure(inbox: ImapInbox, handled: number[], read: number[], sources: Map<number, Buffer>, error: unknown) {
  const missing = read.find((uid) => !sources.has(uid));
  const oversize = error instanceof PollLimitError && error.kind === "oversize";
  const at = missing === undefined ? handled.length - 1 : handled.indexOf(missing) - (oversize ? 0 : 1);
  const context = { inbox_id: inbox.id, organization_id: inbox.organization_id };
  if (oversize && missing !== undefined) log.warn({ ...context, uid: missing }, "IMAP server sent more of a message than asked for; the message is skipped");
  const arrived = read.filter((uid) => missing === undefined || uid < missing);
  await recordBatch(inbox, arrived, sources, at >= 0 ? handled[at] : null).catch((failure: unknown) =>
    log.warn({ ...context, err: errorField(failure) }, "could not record the messages read before an IMAP poll failed"),
  );
}

/**
 * Reads the inbox's new messages and records those that are replies or reports. Bounded whatever
 * the server sends: headers first (at most HEADER_PEEK_BYTES of each, a batch per FETCH), then, for
 * the messages whose headers make them a reply or a report, their first `messageMaxBytes`, the
 * batch's in one FETCH and recorded together with the mark in one transaction (record-batch.ts).
 * A message longer than that is recorded from what was read (headers and the start of its body; a
 * report's machine-readable parts come first). The mark moves past every message handled, recorded
 * or not (one PostgreSQL refuses for what it holds is skipped, record-batch.ts), so a crash re-reads
 * at most a batch (the last few, when PostgreSQL itself crashes: their commits do not wait for the
 * disk, record-replies.ts) and no message can stop an inbox for good; a poll that has read
 * `pollMaxBytes` stops and the next continues. A batch is recorded while the next is read
 * (one at a time, in order, so the mark only moves forward; at most two batches held).
 */
export async function readNewMessages(client: ImapFlow, inbox: ImapInbox, guard: PollGuard, limits: PollLimits, maxMessages: number): Promise<number> {
  const found = await newUids(client, inbox, guard);
  if (found.emptyThrough !== null) await markHandled(inbox, found.emptyThrough);
  const uids = found.uids.slice(0, maxMessages);
  const peek = Math.min(HEADER_PEEK_BYTES, limits.messageMaxBytes);
  let stored = 0;
  let recording: Promise<void> = Promise.resolve();
  const recordInTurn = (work: () => Promise<number>) => {
    const previous = recording;
    recording = previous.then(async () => void (stored += await work()));
    // Its failure is thrown where it is awaited, while the next batch is read meanwhile.
    recording.catch(() => undefined);
    return previous;
  };
  for (let i = 0; i < uids.length; i += HEADER_BATCH) {
    const batch = uids.slice(i, i + HEADER_BATCH);
    if (i > 0 && guard.received() >= limits.pollMaxBytes) break;
    const headers = await readHeaders(client, guard, batch, peek);
    const { read, cut } = planReads(batch, headers, limits, guard.received(), i > 0);
    const handled = cut === null ? batch : batch.slice(0, batch.indexOf(cut));
    const sources = new Map<number, Buffer>();
    try {
      if (read.length > 0) await fetchSources(client, guard, inbox, read, limits, sources);
    } catch (error) {
      // The batches before are recorded first: the mark moves in order.
      await recording;
      await recordBeforeFailure(inbox, handled, read, sources, error);
      throw error;
    }
    for (const uid of read.filter((uid) => !sources.has(uid)))
      log.warn({ inbox_id: inbox.id, organization_id: inbox.organization_id, uid }, "IMAP server gave no content for a message; the message is skipped");
    // The previous batch's recording must be over before this one starts (and before the next is read).
    await recordInTurn(() => recordBatch(inbox, read, sources, handled.at(-1) ?? null));
    if (cut !== null) {
      log.info(
        { inbox_id: inbox.id, organization_id: inbox.organization_id, read: guard.received() },
        "IMAP poll stopped at its byte cap; the next poll continues",
      );
      break;
    }
  }
  await recording;
  return stored;
}
