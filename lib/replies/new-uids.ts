import type { ImapFlow } from "imapflow";
import type { ImapInbox } from "./claim-inboxes";
import type { PollGuard } from "./poll-guard";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * UIDs searched at once after the mark: the answer lists at most this many (~80 KB), however many
 * messages arrived since the last poll; the next window is searched when one is empty.
 */
const UID_WINDOW = 10_000;

export type NewUids = {
  /** The messages to read, ascending. */
  uids: number[];
  /** No message up to this UID is left to read (an empty window): the mark may move there. */
  emptyThrough: number | null;
};

/**
 * The UIDs to read: those after the last one seen. On the first poll (or when the mailbox was
 * renumbered, its UIDs now below ours) there is no usable mark, so messages since the inbox was
 * connected — or since a day before the last poll — are read; the stored Message-IDs keep that
 * from storing anything twice.
 */
export async function newUids(client: ImapFlow, inbox: ImapInbox, guard: PollGuard): Promise<NewUids> {
  const uidNext = client.mailbox ? Number(client.mailbox.uidNext ?? 0) : 0;
  const last = inbox.imap_last_uid;
  const renumbered = last !== null && uidNext > 0 && uidNext <= last;
  if (last !== null && !renumbered) {
    if (uidNext === last + 1) return { uids: [], emptyThrough: null };
    for (let from = last + 1; ; from += UID_WINDOW) {
      const upper = from + UID_WINDOW - 1;
      // `n:*` always includes the newest message, even when its UID is below n; the last window
      // (or any, when the server gave no UIDNEXT) is open-ended so a message arriving now is seen.
      const open = uidNext === 0 || upper >= uidNext - 1;
      const found = await guard.step("SEARCH", () => client.search({ uid: open ? `${from}:*` : `${from}:${upper}` }, { uid: true }));
      const uids = (found || []).filter((uid) => uid >= from && (open || uid <= upper)).sort((a, b) => a - b);
      if (uids.length > 0 || open) return { uids, emptyThrough: from > last + 1 ? from - 1 : null };
    }
  }
  const since = last === null ? inbox.created_at : new Date((inbox.imap_last_polled_at ?? inbox.created_at).getTime() - DAY_MS);
  const uids = await guard.step("SEARCH", () => client.search({ since }, { uid: true }));
  return { uids: (uids || []).sort((a, b) => a - b), emptyThrough: null };
}
