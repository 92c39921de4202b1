import { errorField, log } from "@/lib/log";
import type { ImapInbox } from "./claim-inboxes";
import type { Incoming } from "./incoming";
import { readAll, recordRead, type ReplyOutcome } from "./record-replies";

const storedIn = (outcomes: ReplyOutcome[]) => outcomes.filter((outcome) => outcome.result === "stored").length;

/**
 * Whether PostgreSQL refused a statement for what it was given (SQLSTATE classes 22, data exception,
 * and 54, program limit exceeded — an index row too large, say — or a NOT NULL or CHECK constraint):
 * the same message would be refused again on every poll. A lost connection, a deadlock, a server
 * shutting down or an error of our SQL is not the message's doing, and reading it again may work.
 */
function isMessageFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || code.length !== 5) return false;
  return code.startsWith("22") || code.startsWith("54") || code === "23502" || code === "23514";
}

/**
 * Records a batch's messages one at a time, each with the mark moved to its UID in its transaction,
 * after the batch's transaction was refused for a message fault: the messages that can be recorded
 * are, and one refused alone for such a fault is skipped (logged) with the mark moved past it, so one
 * hostile message neither stalls the inbox at its batch nor fails every poll. Any other failure ends
 * the poll as before, the mark at the last message recorded.
 */
async function recordOneByOne(inbox: ImapInbox, uids: number[], messages: Map<number, Incoming>, mark: number | null): Promise<number> {
  let stored = 0;
  for (const uid of uids) {
    try {
      stored += storedIn(await recordRead(inbox, [messages.get(uid)!], uid));
    } catch (error) {
      if (!isMessageFault(error)) throw error;
      log.warn({ inbox_id: inbox.id, organization_id: inbox.organization_id, uid, err: errorField(error) }, "a message could not be recorded; it is skipped");
      await recordRead(inbox, [], uid);
    }
  }
  if (mark !== null && mark !== uids.at(-1)) await recordRead(inbox, [], mark);
  return stored;
}

/**
 * Records the messages read (`sources`, by UID; `uids` in order) and moves the mark to `mark`, in
 * one transaction (record-replies.ts); when PostgreSQL refuses the batch for what a message holds,
 * one at a time. Answers the replies stored.
 */
export async function recordBatch(inbox: ImapInbox, uids: number[], sources: Map<number, Buffer>, mark: number | null): Promise<number> {
  const read = uids.filter((uid) => sources.has(uid));
  if (read.length === 0 && mark === null) return 0;
  const parsed = await readAll(read.map((uid) => sources.get(uid)!));
  const messages = new Map(read.map((uid, index) => [uid, parsed[index]]));
  try {
    return storedIn(await recordRead(inbox, parsed, mark));
  } catch (error) {
    if (read.length === 0 || !isMessageFault(error)) throw error;
    log.warn(
      { inbox_id: inbox.id, organization_id: inbox.organization_id, err: errorField(error) },
      "a batch of messages could not be recorded; recording them one at a time",
    );
    return recordOneByOne(inbox, read, messages, mark);
  }
}
