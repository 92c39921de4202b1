import type { OrgContext } from "@/lib/domain/context";
import { notFound, PaginationError } from "@/lib/domain/errors";
import type { CursorParams, ListEnvelope } from "@/lib/schemas/pagination";
import { db, Prisma } from "@/lib/db";
import type { BroadcastRecipient, RecipientEvent, SaveRecipientsInput } from "@/lib/schemas/reports";
import { getSegment } from "./segments";

// Each event is a timestamp on the email record; opened_at and clicked_at are set by people only
// (lib/tracking leaves machines' opens and clicks out of them), so these lists never name a proxy.
const EVENT_COLUMN: Record<RecipientEvent, Prisma.Sql> = {
  sent: Prisma.raw("e.sent_at"),
  delivered: Prisma.raw("e.delivered_at"),
  opened: Prisma.raw("e.opened_at"),
  clicked: Prisma.raw("e.clicked_at"),
  bounced: Prisma.raw("e.bounced_at"),
  complained: Prisma.raw("e.complained_at"),
  unsubscribed: Prisma.raw("e.unsubscribed_at"),
};

type Filter = { event: RecipientEvent; position?: number };

function recipientsWhere(ctx: OrgContext, broadcastId: string, filter: Filter): Prisma.Sql {
  const at = EVENT_COLUMN[filter.event];
  const step = filter.position === undefined ? Prisma.empty : Prisma.sql`AND e.sequence_position = ${filter.position}`;
  return Prisma.sql`e.broadcast_id = ${broadcastId}::uuid AND e.organization_id = ${ctx.organizationId}::uuid AND ${at} IS NOT NULL ${step}`;
}

async function assertBroadcast(ctx: OrgContext, broadcastId: string): Promise<{ name: string }> {
  const broadcast = await db.broadcast.findFirst({ where: { id: broadcastId, organization_id: ctx.organizationId }, select: { name: true } });
  if (!broadcast) throw notFound("Broadcast");
  return broadcast;
}

type Row = Omit<BroadcastRecipient, "at"> & { at: Date };

/**
 * GET /v1/broadcasts/{id}/recipients?event=…: the emails of the broadcast with that event, latest
 * first, each with its contact. Keyset pages over (event time, email id).
 */
export async function listBroadcastRecipients(ctx: OrgContext, broadcastId: string, filter: Filter, page: CursorParams): Promise<ListEnvelope<Row>> {
  await assertBroadcast(ctx, broadcastId);
  const at = EVENT_COLUMN[filter.event];
  const where = recipientsWhere(ctx, broadcastId, filter);
  const limit = page.limit ?? 20;
  const cursorId = page.after ?? page.before;
  let seek = Prisma.empty;
  if (cursorId) {
    const [cursor] = await db.$queryRaw<{ at: Date }[]>`SELECT ${at} AS at FROM emails e WHERE e.id = ${cursorId}::uuid AND ${where}`;
    if (!cursor) throw new PaginationError(`${page.after ? "after" : "before"} does not name an item of this list`);
    seek = page.after ? Prisma.sql`AND (${at}, e.id) < (${cursor.at}, ${cursorId}::uuid)` : Prisma.sql`AND (${at}, e.id) > (${cursor.at}, ${cursorId}::uuid)`;
  }
  const order = page.before ? Prisma.sql`${at} ASC, e.id ASC` : Prisma.sql`${at} DESC, e.id DESC`;
  const rows = await db.$queryRaw<Row[]>`
    SELECT e.id, e.contact_id, e.to_email AS email, c.first_name, c.last_name, e.sequence_position AS position, ${at} AS at
    FROM emails e LEFT JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
    WHERE ${where} ${seek}
    ORDER BY ${order}
    LIMIT ${limit + 1}`;
  const hasMore = rows.length > limit;
  const data = rows.slice(0, limit);
  if (page.before) data.reverse();
  return { object: "list", has_more: hasMore, data };
}

const EVENT_WORDS: Record<RecipientEvent, string> = {
  sent: "recipients",
  delivered: "delivered",
  opened: "openers",
  clicked: "clickers",
  bounced: "bounced",
  complained: "complainers",
  unsubscribed: "unsubscribed",
};

/**
 * POST /v1/broadcasts/{id}/recipients/segment: a new segment holding the contacts of one recipient
 * list (each contact once, however many steps it had), written in one statement.
 */
export async function saveRecipientsAsSegment(ctx: OrgContext, broadcastId: string, input: SaveRecipientsInput) {
  const broadcast = await assertBroadcast(ctx, broadcastId);
  const step = input.position === undefined ? "" : ` (step ${input.position})`;
  const name = input.name ?? `${broadcast.name}: ${EVENT_WORDS[input.event]}${step}`.slice(0, 200);
  const where = recipientsWhere(ctx, broadcastId, input);
  const segmentId = await db.$transaction(
    async (tx) => {
      const segment = await tx.segment.create({
        data: { organization_id: ctx.organizationId, name, description: `Saved from the report of ${broadcast.name}`.slice(0, 1000) },
        select: { id: true },
      });
      await tx.$executeRaw`
        INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
        SELECT DISTINCT ${segment.id}::uuid, e.contact_id, e.organization_id
        FROM emails e JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
        WHERE ${where}
        ON CONFLICT DO NOTHING`;
      return segment.id;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  return getSegment(ctx, segmentId);
}
