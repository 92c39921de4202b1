import type { Prisma } from "@/lib/db";
import { db } from "@/lib/db";
import { organizationsInTurn } from "@/lib/db/organizations-in-turn";
import type { ClaimedEvent } from "./types";

/** The organizations with announcements waiting, to serve this round in turn after `after` (lib/db/organizations-in-turn). */
export async function waitingOrganizations(after: string | null, limit: number, only?: string[]): Promise<string[]> {
  if (only) {
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT g.id FROM unnest(${only}::uuid[]) AS g(id)
      WHERE EXISTS (SELECT 1 FROM event_outbox o WHERE o.organization_id = g.id)`;
    return rows.map((row) => row.id);
  }
  return organizationsInTurn(db, { table: "event_outbox q" }, after, limit);
}

export type ClaimedKey = { organization_id: string; event_id: string };

/**
 * Locks up to `share` announcements of each organization (oldest first) for the caller's
 * transaction. SKIP LOCKED: rows another dispatcher holds are left to it, never waited for. The
 * events themselves come along (null when an event was erased since: its announcement is dropped).
 */
export async function claimAnnouncements(
  tx: Prisma.TransactionClient,
  organizationIds: string[],
  share: number,
): Promise<{ keys: ClaimedKey[]; events: ClaimedEvent[] }> {
  // One row of two JSON arrays rather than a row per event: a thousand rows cost Prisma more to read than the query took.
  const [row] = await tx.$queryRaw<{ keys: ClaimedKey[] | null; events: ClaimedEvent[] | null }[]>`
    WITH claimed AS (
      SELECT c.organization_id, c.event_id
      FROM unnest(${organizationIds}::uuid[]) AS g(id)
      CROSS JOIN LATERAL (
        SELECT o.organization_id, o.event_id FROM event_outbox o
        WHERE o.organization_id = g.id
        ORDER BY o.event_id
        LIMIT ${share}::int
        FOR UPDATE SKIP LOCKED
      ) c
    )
    SELECT
      json_agg(json_build_object('organization_id', c.organization_id, 'event_id', c.event_id)) AS keys,
      json_agg(json_build_object(
        'id', e.id, 'organization_id', e.organization_id, 'contact_id', e.contact_id, 'name', e.name, 'source', e.source,
        'email_id', e.email_id, 'broadcast_id', e.broadcast_id, 'automation_id', e.automation_id, 'occurred_at', e.occurred_at)
      ) FILTER (WHERE e.id IS NOT NULL) AS events
    FROM claimed c
    LEFT JOIN events e ON e.organization_id = c.organization_id AND e.id = c.event_id`;
  return {
    keys: row?.keys ?? [],
    events: (row?.events ?? []).map((event) => ({ ...event, occurred_at: new Date(event.occurred_at) })),
  };
}

/** Ends the announcements of a batch, in the transaction that wrote what its consumers made of it. */
export async function deleteAnnouncements(tx: Prisma.TransactionClient, keys: ClaimedKey[]): Promise<void> {
  await tx.$executeRaw`
    DELETE FROM event_outbox o
    USING unnest(${keys.map((k) => k.organization_id)}::uuid[], ${keys.map((k) => k.event_id)}::uuid[]) AS k(organization_id, event_id)
    WHERE o.organization_id = k.organization_id AND o.event_id = k.event_id`;
}
