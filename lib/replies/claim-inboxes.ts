import { db, Prisma } from "@/lib/db";

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
  /** Polls of one organization running at once, across all workers (IMAP_ORGANIZATION_POLLS). */
  organizationPolls: number;
  /** Only these organizations' inboxes (tests share one database). */
  organizationIds?: string[];
};

/** Beyond the deadline, for the poll's last recording and its release to land before the claim lapses. */
const LEASE_MARGIN_SECONDS = 10;

/**
 * Claims inboxes due for a poll: those with IMAP settings whose last poll is older than the
 * interval and that no poll holds (`imap_poll_until` in the future, set here and cleared by
 * `releaseInbox`), at most one per organization a claim, and none of an organization that has
 * `organizationPolls` polls running. Organizations with fewer polls running come first, then the
 * inbox whose last poll is oldest: an organization gets a second poll only when no organization
 * without one has an inbox due. So one organization's slow servers hold at most `organizationPolls`
 * lanes across every worker, a team's many inboxes do not wait one behind the other while lanes are
 * idle, and two polls of one inbox never run at once. Claims are taken one worker at a time (a
 * transaction-scoped advisory lock), so the second worker's claim sees the first's; a worker that
 * dies leaves its claims to lapse at the deadline.
 *
 * A claim that finds the lock taken claims nothing this round (its lane looks again at its next
 * interval) rather than wait: every idle lane of every worker asks every few seconds, and waiting
 * held one connection of its process's pool per lane in a queue that grew with the workers — with
 * three workers (24 lanes) on a busy machine, the other loops' transactions timed out waiting for
 * a connection ("Unable to start a transaction in the given time").
 */
export async function claimInboxes(options: ClaimOptions): Promise<ImapInbox[]> {
  const ids = options.organizationIds;
  const orgFilter = (column: Prisma.Sql) => (ids ? Prisma.sql`AND ${column} = ANY(${ids}::uuid[])` : Prisma.empty);
  const leaseSeconds = options.deadlineMs / 1000 + LEASE_MARGIN_SECONDS;
  return db.$transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext('replies:claim-inboxes')) AS locked`;
    if (!locked) return [];
    return tx.$queryRaw<ImapInbox[]>`
      WITH busy AS (
        SELECT organization_id, count(*)::int AS running FROM inboxes WHERE imap_poll_until > now() ${orgFilter(Prisma.sql`organization_id`)} GROUP BY organization_id
      ), due AS (
        SELECT DISTINCT ON (i.organization_id) i.id, i.imap_last_polled_at AS previous_poll, COALESCE(b.running, 0) AS running
        FROM inboxes i LEFT JOIN busy b ON b.organization_id = i.organization_id
        -- An inbox in error is not polled: its credentials were refused, a person must test or reconnect it (inbox-health.ts).
        WHERE i.imap_host IS NOT NULL AND i.imap_port IS NOT NULL AND i.imap_username IS NOT NULL AND i.status = 'active'
          AND (i.imap_password_encrypted IS NOT NULL OR i.auth_type = 'oauth2')
          AND (i.imap_last_polled_at IS NULL OR i.imap_last_polled_at <= now() - make_interval(secs => ${options.intervalMs / 1000}))
          AND (i.imap_poll_until IS NULL OR i.imap_poll_until <= now())
          AND COALESCE(b.running, 0) < ${options.organizationPolls}
          ${orgFilter(Prisma.sql`i.organization_id`)}
        ORDER BY i.organization_id, i.imap_last_polled_at NULLS FIRST, i.id
      ), picked AS (
        SELECT id, previous_poll FROM due ORDER BY running, previous_poll NULLS FIRST, id LIMIT ${options.limit}
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

/** Moves the inbox's mark: messages up to this UID are handled (a crash resumes after it). */
export async function markHandled(inbox: Pick<ImapInbox, "id" | "organization_id">, uid: number): Promise<void> {
  await db.$executeRaw`UPDATE inboxes SET imap_last_uid = ${uid} WHERE id = ${inbox.id}::uuid AND organization_id = ${inbox.organization_id}::uuid`;
}
