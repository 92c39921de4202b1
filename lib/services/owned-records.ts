import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import type { DbClient } from "@/lib/db";

/** An id taken from a request body, with the path that names it in a 400. */
export type Reference = { id: string; path: string };

type Finder = (client: DbClient, organizationId: string, ids: string[]) => Promise<{ id: string }[]>;

const select = { id: true } as const;

const finders = {
  template: (client, organization_id, ids) => client.template.findMany({ where: { organization_id, id: { in: ids } }, select }),
  segment: (client, organization_id, ids) => client.segment.findMany({ where: { organization_id, id: { in: ids } }, select }),
  topic: (client, organization_id, ids) => client.topic.findMany({ where: { organization_id, id: { in: ids } }, select }),
  inbox: (client, organization_id, ids) => client.inbox.findMany({ where: { organization_id, id: { in: ids } }, select }),
} satisfies Record<string, Finder>;

/** Every reference must name a record of the caller's organization: otherwise 400 naming the first bad one. */
export async function assertOwned(client: DbClient, ctx: OrgContext, kind: keyof typeof finders, refs: Reference[]) {
  if (refs.length === 0) return;
  const rows = await finders[kind](client, ctx.organizationId, [...new Set(refs.map((ref) => ref.id))]);
  const found = new Set(rows.map((row) => row.id.toLowerCase()));
  const missing = refs.find((ref) => !found.has(ref.id.toLowerCase()));
  if (missing) throw invalidField(missing.path, `no such ${kind} in this organization`);
}
