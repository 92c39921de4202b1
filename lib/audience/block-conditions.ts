import { Prisma } from "@/lib/db";
import { log } from "@/lib/log";
import type { Filter } from "@/lib/schemas/filters";
import { compileFilter } from "./compile";
import { loadScope, type AudienceClient } from "./scope";

const FALSE = Prisma.sql`false`;

/**
 * Which of an email's conditional blocks each contact gets: the filters compiled (leniently, as
 * stored filters are: a deleted segment or a retyped property matches nobody) into one statement
 * over the given contacts, one boolean column per filter. A batch of recipients costs one query,
 * not one per recipient.
 */
export async function matchBlockConditions(
  client: AudienceClient,
  organizationId: string,
  filters: Filter[],
  contactIds: string[],
  options: { now?: Date } = {},
): Promise<Map<string, boolean[]>> {
  if (filters.length === 0 || contactIds.length === 0) return new Map();
  const scope = await loadScope(client, organizationId, filters, { strict: false, now: options.now });
  const conditions = filters.map((filter, i) => {
    try {
      return compileFilter(filter, scope, `content_json.conditions.${i}`);
    } catch (error) {
      // Only a structural problem (segments including each other since) gets here: nobody sees the block.
      log.warn({ organization_id: organizationId, err: String(error) }, "conditional block: its filter no longer compiles; hidden");
      return FALSE;
    }
  });
  const columns = Prisma.join(conditions.map((condition, i) => Prisma.sql`coalesce(${condition}, false) AS ${Prisma.raw(`"m${i}"`)}`));
  const rows = await client.$queryRaw<Record<string, unknown>[]>`
    SELECT c.id, ${columns} FROM contacts c
    WHERE c.organization_id = ${organizationId}::uuid AND c.id = ANY(${contactIds}::uuid[])`;
  return new Map(rows.map((row) => [String(row.id), filters.map((_, i) => row[`m${i}`] === true)]));
}
