import { db, Prisma, type DbClient } from "@/lib/db";

export type ImapInbox = {
  id: string;
  organization_id: string;
  imap_host: string;
  imap_port: number;
  imap_secure: boolean;
  imap_username: string;
  /** Null for an OAuth inbox, which signs in with an access token (lib/oauth). */
  imap_password_encrypted: string | null;
  auth_type: "password" | "oauth2";
  imap_last_uid: number | null;
  imap_last_polled_at: Date | null;
  created_at: Date;
};

export type ClaimOptions = {
  /** How many inboxes to claim at most. */
  limit: number;
  /** An inbox is polled at most this often, whichever worker does it. */
  intervalMs: number;
  /** The poll's deadline: the claim lasts that long (and a little more) unless released first. */
  deadlineMs: number;
  /** Only these organizations' inboxes (tests share one database). */
  organizationIds?: string[];
};

/** Beyond the deadline, for the poll's last recording and its release to land before the claim lapses. */
const LEASE_MARGIN_SECONDS = 10;

/**
 * Claims inboxes due for a poll: those with IMAP settings whose last poll is older than the
 * interval, at most one per organization, and none of an organization that has a poll running
 * (`imap_poll_until` in the future, set here and cleared by `releaseInbox`). So one organization's
 * slow servers hold at most one poll at a time across every worker, and two polls of one inbox never
 * run at once. Claims are taken one worker at a time (a transaction-scoped advisory lock), so the
 * second worker's claim sees the first's; a worker that dies leaves its claims to lapse at the deadline.
 */
export async function claimInboxes(options: ClaimOptions): Promise<ImapInbox[]> {
  const orgFilter = options.organizationIds ? Prisma.sql`AND organization_id = ANY(${options.organizationIds}::uuid[])` : Prisma.empty;
  const leaseSeconds = options.deadlineMs / 1000 + LEASE_MARGIN_SECONDS;
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('replies:claim-inboxes'))`;
    return tx.$queryRaw<ImapInbox[]>`
      WITH busy AS (
        SELECT DISTINCT organization_id FROM inboxes WHERE imap_poll_until > now() ${orgFilter}
      ), due AS (
        SELECT DISTINCT ON (organization_id) id, imap_last_polled_at AS previous_poll FROM inboxes
        -- An inbox in error is not polled: its credentials were refused, a person must test or reconnect it (inbox-health.ts).
        WHERE imap_host IS NOT NULL AND imap_port IS NOT NULL AND imap_username IS NOT NULL AND status = 'active'
          AND (imap_password_encrypted IS NOT NULL OR auth_type = 'oauth2')
          AND (imap_last_polled_at IS NULL OR imap_last_polled_at <= now() - make_interval(secs => ${options.intervalMs / 1000}))
          AND organization_id NOT IN (SELECT organization_id FROM busy)
          ${orgFilter}
        ORDER BY organization_id, imap_last_polled_at NULLS FIRST, id
      ), picked AS (
        SELECT id, previous_poll FROM due ORDER BY previous_poll NULLS FIRST, id LIMIT ${options.limit}
      )
      UPDATE inboxes i SET imap_last_polled_at = now(), imap_poll_until = now() + make_interval(secs => ${leaseSeconds})
      FROM picked WHERE i.id = picked.id
      RETURNING i.id, i.organization_id, i.imap_host, i.imap_port, COALESCE(i.imap_secure, i.imap_port = 993) AS imap_secure,
        i.imap_username, i.imap_password_encrypted, i.auth_type::text AS auth_type, i.imap_last_uid, picked.previous_poll AS imap_last_polled_at, i.created_at`;
  });
}

/** Ends an inbox's claim when its poll is over, so its organization's next inbox may be polled. */
export async function releaseInbox(inbox: Pick<ImapInbox, "id" | "organization_id">): Promise<void> {
  await db.$executeRaw`UPDATE inboxes SET imap_poll_until = NULL WHERE id = ${inbox.id}::uuid AND organization_id = ${inbox.organization_id}::uuid`;
}

/** Moves the inbox's mark: messages up to this UID are handled (a crash resumes after it). `client`: the transaction that recorded them. */
export async function markHandled(inbox: Pick<ImapInbox, "id" | "organization_id">, uid: number, client: DbClient = db): Promise<void> {
  await client.$executeRaw`UPDATE inboxes SET imap_last_uid = ${uid} WHERE id = ${inbox.id}::uuid AND organization_id = ${inbox.organization_id}::uuid`;
}
