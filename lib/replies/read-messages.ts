import type { FetchMessageObject, ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { log } from "@/lib/log";
import { markHandled, type ImapInbox } from "./claim-inboxes";
import { newUids } from "./new-uids";
import { PollLimitError, type PollGuard } from "./poll-guard";
import { HEADER_PEEK_BYTES, type PollLimits } from "./poll-limits";
import { mayBeReplyOrReport, recordRawReply } from "./record-reply";

/** Messages whose headers one FETCH reads. */
const HEADER_BATCH = 50;

/** Whether the headers make the message worth reading: a reply, a report, or headers too long to tell. */
async function worthReading(header: Buffer | undefined, peek: number): Promise<boolean> {
  if (!header) return true;
  if (header.length >= peek) return true;
  return mayBeReplyOrReport(await simpleParser(header, { skipImageLinks: true, skipTextToHtml: true }));
}

/** The first headers of a batch of messages, and which of them are worth reading. */
async function readHeaders(client: ImapFlow, guard: PollGuard, uids: number[], peek: number): Promise<Map<number, boolean>> {
  const wanted = new Map<number, boolean>();
  await guard.step("FETCH of headers", async () => {
    const query = { uid: true, size: true, bodyParts: [{ key: "HEADER", start: 0, maxLength: peek }] };
    for await (const message of client.fetch(uids.join(","), query, { uid: true })) {
      if (uids.includes(message.uid)) wanted.set(message.uid, await worthReading(message.headers ?? message.bodyParts?.get("header"), peek));
    }
  });
  return wanted;
}

/**
 * Reads the inbox's new messages and records those that are replies or reports. Bounded whatever
 * the server sends: headers first (at most HEADER_PEEK_BYTES of each, a batch per FETCH), then, for
 * the messages whose headers make them a reply or a report, their first `messageMaxBytes` —
 * recorded before the next is read. A message longer than that is recorded from what was read
 * (headers and the start of its body; a report's machine-readable parts come first). The mark moves
 * past every message handled, recorded or not, so a crash resumes after it and no message can stop
 * an inbox for good; a poll that has read `pollMaxBytes` stops and the next continues.
 */
export async function readNewMessages(client: ImapFlow, inbox: ImapInbox, guard: PollGuard, limits: PollLimits, maxMessages: number): Promise<number> {
  const found = await newUids(client, inbox, guard);
  if (found.emptyThrough !== null) await markHandled(inbox, found.emptyThrough);
  const uids = found.uids.slice(0, maxMessages);
  const peek = Math.min(HEADER_PEEK_BYTES, limits.messageMaxBytes);
  const context = { inbox_id: inbox.id, organization_id: inbox.organization_id };
  let stored = 0;
  let progressed = false;
  for (let i = 0; i < uids.length; i += HEADER_BATCH) {
    const batch = uids.slice(i, i + HEADER_BATCH);
    if (progressed && guard.received() >= limits.pollMaxBytes) break;
    const wanted = await readHeaders(client, guard, batch, peek);
    let unmarked: number | null = null;
    for (const uid of batch) {
      if (wanted.get(uid)) {
        if (progressed && guard.received() + limits.messageMaxBytes > limits.pollMaxBytes) {
          if (unmarked !== null) await markHandled(inbox, unmarked);
          log.info({ ...context, read: guard.received() }, "IMAP poll stopped at its byte cap; the next poll continues");
          return stored;
        }
        let message: FetchMessageObject | false;
        try {
          message = await guard.step("FETCH of a message", () =>
            client.fetchOne(String(uid), { uid: true, size: true, source: { start: 0, maxLength: limits.messageMaxBytes } }, { uid: true }),
          );
        } catch (error) {
          // The server answered with more than the part asked for: skip the message, or it would stop every poll here.
          if (error instanceof PollLimitError && error.kind === "oversize") {
            await markHandled(inbox, uid);
            log.warn({ ...context, uid }, "IMAP server sent more of a message than asked for; the message is skipped");
          }
          throw error;
        }
        if (message && message.source) {
          if (message.source.length >= limits.messageMaxBytes)
            log.info(
              { ...context, uid, size: message.size, read: message.source.length },
              "IMAP message longer than the per-message cap: recorded from its start",
            );
          if ((await recordRawReply(inbox, message.source)).result === "stored") stored++;
        } else {
          log.warn({ ...context, uid }, "IMAP server gave no content for a message; the message is skipped");
        }
        await markHandled(inbox, uid);
        unmarked = null;
      } else unmarked = uid;
      progressed = true;
    }
    if (unmarked !== null) await markHandled(inbox, unmarked);
  }
  return stored;
}
