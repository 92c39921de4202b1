import { isIP } from "node:net";
import { ImapFlow } from "imapflow";
import { openSecret } from "@/lib/crypto/secret-box";
import { db, Prisma } from "@/lib/db";
import { checkedAddress, defaultOutboundPolicy, type OutboundPolicy } from "@/lib/net/outbound-policy";
import { recordRawReply } from "./record-reply";
import { errorField, log } from "@/lib/log";

export type ImapInbox = {
  id: string;
  organization_id: string;
  imap_host: string;
  imap_port: number;
  imap_secure: boolean;
  imap_username: string;
  imap_password_encrypted: string;
  imap_last_uid: number | null;
  imap_last_polled_at: Date | null;
  created_at: Date;
};

export type PollOptions = {
  /** An inbox is polled at most this often, whichever worker does it. */
  intervalMs?: number;
  /** Most messages read from one inbox per poll; the next poll continues. */
  maxMessages?: number;
  /** Only this organization's inboxes (tests share one database). */
  organizationId?: string;
  /** Where IMAP servers may be; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The UIDs to read: those after the last one seen. On the first poll (or when the mailbox was
 * renumbered, its UIDs now below ours) there is no usable mark, so messages since the inbox was
 * connected — or since a day before the last poll — are read; the stored Message-IDs keep that
 * from storing anything twice.
 */
async function newUids(client: ImapFlow, inbox: ImapInbox): Promise<number[]> {
  const uidNext = client.mailbox ? Number(client.mailbox.uidNext ?? 0) : 0;
  const last = inbox.imap_last_uid;
  const renumbered = last !== null && uidNext > 0 && uidNext <= last;
  if (last !== null && !renumbered) {
    if (uidNext === last + 1) return [];
    // `n:*` always includes the newest message, even when its UID is below n.
    const uids = await client.search({ uid: `${last + 1}:*` }, { uid: true });
    return (uids || []).filter((uid) => uid > last).sort((a, b) => a - b);
  }
  const since = last === null ? inbox.created_at : new Date((inbox.imap_last_polled_at ?? inbox.created_at).getTime() - DAY_MS);
  const uids = await client.search({ since }, { uid: true });
  return (uids || []).sort((a, b) => a - b);
}

/** Reads the inbox's new messages over IMAP and records those that are replies. Answers how many it stored. */
export async function pollInbox(inbox: ImapInbox, options: PollOptions = {}): Promise<number> {
  // Checked now, on the address it resolves to now; ImapFlow then connects to that very address
  // (no second resolution to rebind) and verifies TLS against the host name.
  const { address } = await checkedAddress(inbox.imap_host, inbox.imap_port, options.policy ?? defaultOutboundPolicy());
  const client = new ImapFlow({
    host: address,
    servername: isIP(inbox.imap_host) ? undefined : inbox.imap_host,
    port: inbox.imap_port,
    secure: inbox.imap_secure,
    auth: { user: inbox.imap_username, pass: openSecret(inbox.imap_password_encrypted) },
    logger: false,
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
  });
  await client.connect();
  let stored = 0;
  try {
    const lock = await client.getMailboxLock("INBOX", { readOnly: true });
    try {
      const uids = (await newUids(client, inbox)).slice(0, options.maxMessages ?? 500);
      if (uids.length === 0) return 0;
      const messages: { uid: number; source: Buffer }[] = [];
      for await (const message of client.fetch(uids.join(","), { uid: true, source: true }, { uid: true })) {
        if (message.source) messages.push({ uid: message.uid, source: message.source });
      }
      messages.sort((a, b) => a.uid - b.uid);
      for (const message of messages) {
        const outcome = await recordRawReply(inbox, message.source);
        if (outcome.result === "stored") stored++;
        // The mark moves with every message, so a crash resumes after the last one handled.
        await db.inbox.update({ where: { id: inbox.id }, data: { imap_last_uid: message.uid } });
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return stored;
}

/**
 * The periodic reply task: claims the inboxes with IMAP settings whose last poll is older than
 * the interval (the claim is the update of `imap_last_polled_at`, so two workers never poll one
 * inbox at once) and polls each. An inbox that fails is tried again next interval.
 */
export async function pollReplies(options: PollOptions = {}): Promise<number> {
  const intervalMs = options.intervalMs ?? 60_000;
  const orgFilter = options.organizationId ? Prisma.sql`AND organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  const inboxes = await db.$queryRaw<ImapInbox[]>`
    WITH due AS (
      SELECT id, imap_last_polled_at AS previous_poll FROM inboxes
      WHERE imap_host IS NOT NULL AND imap_port IS NOT NULL AND imap_username IS NOT NULL AND imap_password_encrypted IS NOT NULL
        AND (imap_last_polled_at IS NULL OR imap_last_polled_at <= now() - make_interval(secs => ${intervalMs / 1000}))
        ${orgFilter}
      ORDER BY imap_last_polled_at NULLS FIRST
      LIMIT 20
      FOR UPDATE SKIP LOCKED
    )
    UPDATE inboxes i SET imap_last_polled_at = now()
    FROM due WHERE i.id = due.id
    RETURNING i.id, i.organization_id, i.imap_host, i.imap_port, COALESCE(i.imap_secure, i.imap_port = 993) AS imap_secure,
      i.imap_username, i.imap_password_encrypted, i.imap_last_uid, due.previous_poll AS imap_last_polled_at, i.created_at`;
  let stored = 0;
  for (const inbox of inboxes) {
    try {
      stored += await pollInbox(inbox, options);
    } catch (error) {
      log.warn({ inbox_id: inbox.id, organization_id: inbox.organization_id, err: errorField(error) }, "IMAP poll of an inbox failed");
    }
  }
  return stored;
}
