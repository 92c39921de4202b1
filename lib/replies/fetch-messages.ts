import type { ImapFlow } from "imapflow";
import { log } from "@/lib/log";
import type { ImapInbox } from "./claim-inboxes";
import { headersMayBeReplyOrReport } from "./incoming";
import type { PollGuard } from "./poll-guard";
import type { PollLimits } from "./poll-limits";

/** What the header FETCH tells of a message: whether it is worth reading, and the size the server gives. */
export type MessageHeader = { wanted: boolean; size: number | null };

/** The first headers of a batch of messages (at most `peek` bytes each), and which of them are worth reading. */
export async function readHeaders(client: ImapFlow, guard: PollGuard, uids: number[], peek: number): Promise<Map<number, MessageHeader>> {
  const asked = new Set(uids);
  const headers = new Map<number, MessageHeader>();
  await guard.step("FETCH of headers", async () => {
    const query = { uid: true, size: true, bodyParts: [{ key: "HEADER", start: 0, maxLength: peek }] };
    for await (const message of client.fetch(uids.join(","), query, { uid: true })) {
      if (!asked.has(message.uid)) continue;
      const header = message.headers ?? message.bodyParts?.get("header");
      // No header, or one as long as the peek: only the whole message can tell.
      const wanted = !header || header.length >= peek || headersMayBeReplyOrReport(header);
      headers.set(message.uid, { wanted, size: typeof message.size === "number" ? message.size : null });
    }
  });
  return headers;
}

/**
 * The messages of a batch the poll may still read, in order, and the first it may not (`cut`): a
 * message is started only while what the poll has read, plus what this batch reads before it, plus
 * a whole message, stays within the poll's byte cap — the first one of a poll always. What a
 * message will take is the size the server gave, up to the per-message cap; a server that sends more
 * than it said is cut off by the poll guard at the cap plus one message, whatever it sends.
 */
export function planReads(batch: number[], headers: Map<number, MessageHeader>, limits: PollLimits, received: number, progressed: boolean) {
  const read: number[] = [];
  let planned = 0;
  for (const [index, uid] of batch.entries()) {
    const header = headers.get(uid);
    if (header?.wanted) {
      if ((progressed || index > 0) && received + planned + limits.messageMaxBytes > limits.pollMaxBytes) return { read, cut: uid };
      read.push(uid);
      planned += Math.min(header.size ?? limits.messageMaxBytes, limits.messageMaxBytes);
    }
  }
  return { read, cut: null };
}

/**
 * Reads the first `messageMaxBytes` of each of `uids` in one FETCH, into `into` as they arrive (what
 * arrived before a failure is kept there for the caller). Each message must arrive within the command
 * timeout of the one before, as when each was a command of its own; the poll's deadline bounds them all.
 */
export async function fetchSources(client: ImapFlow, guard: PollGuard, inbox: ImapInbox, uids: number[], limits: PollLimits, into: Map<number, Buffer>) {
  const asked = new Set(uids);
  const context = { inbox_id: inbox.id, organization_id: inbox.organization_id };
  await guard.step("FETCH of messages", async (progress) => {
    const query = { uid: true, size: true, source: { start: 0, maxLength: limits.messageMaxBytes } };
    for await (const message of client.fetch(uids.join(","), query, { uid: true })) {
      progress();
      if (!asked.has(message.uid) || !message.source || into.has(message.uid)) continue;
      if (message.source.length >= limits.messageMaxBytes)
        log.info(
          { ...context, uid: message.uid, size: message.size, read: message.source.length },
          "IMAP message longer than the per-message cap: recorded from its start",
        );
      into.set(message.uid, message.source);
    }
  });
}
