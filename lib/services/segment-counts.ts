import type { OrgContext } from "@/lib/domain/context";
import { compileFilter } from "@/lib/audience/compile";
import { filterCondition } from "@/lib/audience/membership";
import { loadScope } from "@/lib/audience/scope";
import { db, Prisma } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { MAX_PREVIEW_SAMPLE, type PreviewSegmentInput } from "@/lib/schemas/segments";
import { serializeContact, type ContactRow } from "./contacts";

// Counting a dynamic segment reads every match: a page of them is counted two at a time, so one
// organization's segment list holds at most two of the process's connections.
const COUNT_CONCURRENCY = 2;

/** Contacts of the organization matching `where` (plain pg: a raw query through Prisma costs more CPU per row). */
async function countWhere(ctx: OrgContext, where: Prisma.Sql): Promise<number> {
  const query = Prisma.sql`SELECT count(*)::int AS total FROM contacts c WHERE c.organization_id = ${ctx.organizationId}::uuid AND ${where}`;
  const { rows } = await pool.query<{ total: number }>(query.text, query.values);
  return rows[0].total;
}

type Counted = { id: string; filter: unknown; _count: { contacts: number } };

/**
 * Each segment's contacts_count: a static one's rows in segment_contacts (counted with the page), a
 * dynamic one's matches now, compiled from one read of the organization's properties and segments.
 */
export async function segmentCounts(ctx: OrgContext, rows: Counted[]): Promise<Map<string, number>> {
  const counts = new Map(rows.filter((row) => row.filter === null).map((row) => [row.id, row._count.contacts]));
  const dynamic = rows.filter((row) => row.filter !== null);
  if (dynamic.length === 0) return counts;
  const conditions = dynamic.map((row) => ({ in_segment: row.id }));
  const scope = await loadScope(db, ctx.organizationId, conditions, { strict: false });
  let next = 0;
  const worker = async () => {
    while (next < dynamic.length) {
      const row = dynamic[next++];
      counts.set(row.id, await countWhere(ctx, compileFilter({ in_segment: row.id }, scope)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(COUNT_CONCURRENCY, dynamic.length) }, worker));
  return counts;
}

/**
 * POST /v1/segments/preview: how many contacts a filter matches now and the newest few, without
 * saving anything. The count and the sample run side by side on two connections.
 */
export async function previewSegment(ctx: OrgContext, input: PreviewSegmentInput) {
  const where = await filterCondition(db, ctx.organizationId, input.filter);
  const sampleQuery = Prisma.sql`SELECT c.*, s.reason::text AS suppression_reason, s.created_at AS suppressed_at
    FROM contacts c LEFT JOIN suppressions s ON s.organization_id = c.organization_id AND s.email = c.email
    WHERE c.organization_id = ${ctx.organizationId}::uuid AND ${where}
    ORDER BY c.created_at DESC, c.id DESC LIMIT ${MAX_PREVIEW_SAMPLE}`;
  const [count, sample] = await Promise.all([countWhere(ctx, where), pool.query<ContactRow>(sampleQuery.text, sampleQuery.values)]);
  return { contacts_count: count, sample: sample.rows.map((row) => serializeContact(row)) };
}
