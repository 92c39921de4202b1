import { Prisma, type Db } from "@/lib/db";
import { invalidField } from "@/lib/domain/errors";
import type { Filter } from "@/lib/schemas/automation-filter";

type DbClient = Db | Prisma.TransactionClient;

/**
 * The seam to the filter language (lib/audience, built beside automations): conditions, exit
 * filters and dynamic segments ask here, and only here, whether contacts match a filter.
 */

/** A filter a client sent: compiled strictly, any problem a 400 naming its place under `path`. */
export async function assertFilter(_client: DbClient, _organizationId: string, _filter: Filter, path: string): Promise<void> {
  throw invalidField(path, "filters are not available yet");
}

/** A saved filter as a condition on contacts `c` (lenient: a condition gone stale matches nobody). */
async function filterSql(_client: DbClient, _organizationId: string, _filter: Filter): Promise<Prisma.Sql> {
  return Prisma.sql`false`;
}

/** Which of these contacts match a saved filter now. */
export async function contactsMatching(client: DbClient, organizationId: string, filter: Filter, contactIds: string[]): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const condition = await filterSql(client, organizationId, filter);
  const rows = await client.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM contacts c WHERE c.organization_id = ${organizationId}::uuid AND c.id = ANY(${contactIds}::uuid[]) AND ${condition}`;
  return new Set(rows.map((row) => row.id));
}
