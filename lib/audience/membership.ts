import { Prisma } from "@/lib/db";
import type { Filter } from "@/lib/schemas/filters";
import { compileFilter } from "./compile";
import { loadScope, type AudienceClient } from "./scope";

type Options = { now?: Date };

/**
 * The one answer to "is contact `c` a member of this segment": a static segment's rows in
 * segment_contacts, a dynamic one's filter as it matches now. A segment that no longer exists has
 * no members. Every reader of membership (lists, broadcasts, fan-out, sequence exits) asks here.
 */
export async function segmentCondition(client: AudienceClient, organizationId: string, segmentId: string, options: Options = {}): Promise<Prisma.Sql> {
  return storedCondition(client, organizationId, { in_segment: segmentId }, options);
}

/** Members of any of the segments (none given: nobody). */
export async function memberOfAnyCondition(client: AudienceClient, organizationId: string, segmentIds: string[], options: Options = {}) {
  return storedCondition(client, organizationId, { any: segmentIds.map((id) => ({ in_segment: id })) }, options);
}

/** Members of every one of the segments that still exist (none given, or none left: everybody). */
export async function memberOfAllCondition(client: AudienceClient, organizationId: string, segmentIds: string[], options: Options = {}) {
  const existing = await client.segment.findMany({ where: { organization_id: organizationId, id: { in: segmentIds } }, select: { id: true } });
  return storedCondition(client, organizationId, { all: existing.map(({ id }) => ({ in_segment: id })) }, options);
}

/** A filter saved earlier (a background job's): compiled leniently, as a stored segment's is. */
export async function savedFilterCondition(client: AudienceClient, organizationId: string, filter: Filter, options: Options = {}): Promise<Prisma.Sql> {
  return storedCondition(client, organizationId, filter, options);
}

/** Conditions a request did not just send (ids and filters saved before): compiled leniently. */
async function storedCondition(client: AudienceClient, organizationId: string, filter: Filter, options: Options): Promise<Prisma.Sql> {
  const scope = await loadScope(client, organizationId, [filter], { now: options.now, strict: false });
  return compileFilter(filter, scope);
}

/**
 * A filter a client sent, as a condition on `c`: every problem is a 400 naming its place under
 * `path` (a property compared with another type's operator, an unknown segment or broadcast, a
 * cycle through `self`, the segment being saved).
 */
export async function filterCondition(
  client: AudienceClient,
  organizationId: string,
  filter: Filter,
  options: Options & { path?: string; self?: string } = {},
): Promise<Prisma.Sql> {
  const scope = await loadScope(client, organizationId, [filter], { now: options.now, strict: true, self: options.self });
  return compileFilter(filter, scope, options.path ?? "filter");
}

/**
 * The next `limit` members of a segment after `afterContactId`, in contact id order, as a query
 * answering `contact_id`: what the broadcast fan-out walks, chunk by chunk. A static segment walks
 * its key; a dynamic one the organization's contacts matching its filter at the moment each chunk
 * runs, so a contact who joins during the fan-out is still reached.
 */
export async function segmentMembersChunkSql(
  client: AudienceClient,
  organizationId: string,
  segmentId: string,
  { afterContactId, limit }: { afterContactId: string; limit: number },
): Promise<Prisma.Sql> {
  const segment = await client.segment.findFirst({ where: { id: segmentId, organization_id: organizationId }, select: { filter: true } });
  if (!segment || segment.filter === null) {
    return Prisma.sql`SELECT sc.contact_id FROM segment_contacts sc
      WHERE sc.segment_id = ${segmentId}::uuid AND sc.organization_id = ${organizationId}::uuid AND sc.contact_id > ${afterContactId}::uuid
      ORDER BY sc.contact_id LIMIT ${limit}`;
  }
  const members = await segmentCondition(client, organizationId, segmentId);
  return Prisma.sql`SELECT c.id AS contact_id FROM contacts c
    WHERE c.organization_id = ${organizationId}::uuid AND c.id > ${afterContactId}::uuid AND ${members}
    ORDER BY c.id LIMIT ${limit}`;
}

/**
 * The segments one contact is in now, static and dynamic, in one statement: each dynamic segment's
 * filter is evaluated on that contact alone (its event conditions probe the contact's events by
 * index). For a contact page's list of segments, and for what a change of the contact's data makes
 * it enter or leave.
 */
export async function segmentsOfContact(client: AudienceClient, organizationId: string, contactId: string, options: Options = {}): Promise<string[]> {
  const segments = await client.segment.findMany({ where: { organization_id: organizationId }, select: { id: true }, orderBy: { created_at: "asc" } });
  if (segments.length === 0) return [];
  const conditions = segments.map(({ id }) => ({ in_segment: id }));
  const scope = await loadScope(client, organizationId, conditions, { now: options.now, strict: false });
  const tests = Prisma.join(
    conditions.map((condition, i) => Prisma.sql`CASE WHEN ${compileFilter(condition, scope)} THEN ${segments[i].id}::uuid END`),
    ", ",
  );
  const rows = await client.$queryRaw<{ ids: (string | null)[] }[]>`
    SELECT ARRAY[${tests}]::text[] AS ids FROM contacts c WHERE c.id = ${contactId}::uuid AND c.organization_id = ${organizationId}::uuid`;
  return (rows[0]?.ids ?? []).filter((id): id is string => id !== null);
}
