import { compileFilter } from "@/lib/audience/compile";
import { loadScope, type AudienceClient } from "@/lib/audience/scope";
import type { Filter } from "@/lib/schemas/filters";

/**
 * Which of these contacts match a saved filter (a condition's, an exit filter) at `now`, through the
 * one filter language of lib/audience. Compiled leniently: a condition gone stale since the
 * automation was saved (a property retyped, a segment deleted) matches nobody instead of stopping
 * the engine. One statement for the group.
 */
export async function contactsMatching(client: AudienceClient, organizationId: string, filter: Filter, contactIds: string[], now: Date): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const scope = await loadScope(client, organizationId, [filter], { now, strict: false });
  const rows = await client.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM contacts c
    WHERE c.organization_id = ${organizationId}::uuid AND c.id = ANY(${contactIds}::uuid[]) AND ${compileFilter(filter, scope)}`;
  return new Set(rows.map((row) => row.id));
}
