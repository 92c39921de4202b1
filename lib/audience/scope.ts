import { Prisma, type Db } from "@/lib/db";
import type { Filter, PropertyType } from "@/lib/schemas/filters";
import { MAX_SEGMENT_NESTING, type FilterScope } from "./compile";

export type AudienceClient = Db | Prisma.TransactionClient;

type Reached = { segments: Set<string>; broadcasts: Set<string> };

/** The segment ids and broadcast ids a filter names directly. */
function namedIn(filter: Filter, reached: Reached) {
  if ("all" in filter) filter.all.forEach((child) => namedIn(child, reached));
  else if ("any" in filter) filter.any.forEach((child) => namedIn(child, reached));
  else if ("not" in filter) namedIn(filter.not, reached);
  else if ("in_segment" in filter) reached.segments.add(filter.in_segment.toLowerCase());
  else if ("event" in filter && filter.where?.broadcast_id) reached.broadcasts.add(filter.where.broadcast_id.toLowerCase());
}

/** The segments a filter names through in_segment (not those their own filters name). */
export function segmentsNamedIn(filter: Filter): Set<string> {
  const reached: Reached = { segments: new Set(), broadcasts: new Set() };
  namedIn(filter, reached);
  return reached.segments;
}

/** The organization's typed properties, key → type. */
export async function propertyTypes(client: AudienceClient, organizationId: string): Promise<Map<string, PropertyType>> {
  const rows = await client.contactProperty.findMany({ where: { organization_id: organizationId }, select: { key: true, type: true } });
  return new Map(rows.map((row) => [row.key, row.type]));
}

/**
 * Reads what compiling `filters` needs: the organization's property types, every segment reached
 * through in_segment (following dynamic segments' filters, one query per level of nesting), and
 * which named broadcasts exist. Stored filters are JSON the schema checked when they were saved.
 */
export async function loadScope(
  client: AudienceClient,
  organizationId: string,
  filters: Filter[],
  options: { now?: Date; strict: boolean; self?: string },
): Promise<FilterScope> {
  const reached: Reached = { segments: new Set(), broadcasts: new Set() };
  filters.forEach((filter) => namedIn(filter, reached));
  const segments = new Map<string, { filter: Filter | null }>();
  let wanted = [...reached.segments];
  for (let level = 0; wanted.length > 0 && level <= MAX_SEGMENT_NESTING; level++) {
    const rows = await client.segment.findMany({ where: { organization_id: organizationId, id: { in: wanted } }, select: { id: true, filter: true } });
    const next: Reached = { segments: new Set(), broadcasts: new Set() };
    for (const row of rows) {
      const filter = (row.filter ?? null) as Filter | null;
      segments.set(row.id, { filter });
      if (filter) namedIn(filter, next);
    }
    wanted = [...next.segments].filter((id) => !segments.has(id));
  }
  const [properties, broadcasts] = await Promise.all([
    propertyTypes(client, organizationId),
    reached.broadcasts.size === 0 || !options.strict
      ? Promise.resolve([])
      : client.broadcast.findMany({ where: { organization_id: organizationId, id: { in: [...reached.broadcasts] } }, select: { id: true } }),
  ]);
  return {
    organizationId,
    properties,
    segments,
    broadcasts: new Set(broadcasts.map((row) => row.id)),
    now: options.now ?? new Date(),
    strict: options.strict,
    self: options.self?.toLowerCase(),
  };
}
