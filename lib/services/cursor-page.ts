import { PaginationError } from "@/lib/domain/errors";
import type { CursorParams, ListEnvelope } from "@/lib/schemas/pagination";

type Keyed = { id: string; created_at: Date };
type KeysetArgs = { where: object; orderBy: object[]; take?: number };

/**
 * Newest-first keyset pagination over (created_at, id). The keyset OR alone is not something an
 * (…, created_at, id) index can seek with, so its created_at half is repeated as a plain range: the
 * rows are the same, and a page deep in the list no longer reads every newer row first.
 * `fetch` runs the list's own query with the
 * extra `where`, `orderBy` and `take`; `locate` finds the cursor item within the same list.
 */
export async function cursorPage<T extends Keyed>(
  params: CursorParams,
  fetch: (args: KeysetArgs) => Promise<T[]>,
  locate: (id: string) => Promise<Keyed | null>,
): Promise<ListEnvelope<T>> {
  const { limit } = params;
  const take = limit === undefined ? undefined : limit + 1;
  const cursorId = params.after ?? params.before;
  if (cursorId === undefined) {
    const rows = await fetch({ where: {}, orderBy: [{ created_at: "desc" }, { id: "desc" }], take });
    return envelope(rows, limit);
  }
  const cursor = await locate(cursorId);
  if (!cursor) throw new PaginationError(`${params.after ? "after" : "before"} does not name an item of this list`);
  if (params.after) {
    const rows = await fetch({
      where: {
        created_at: { lte: cursor.created_at },
        OR: [{ created_at: { lt: cursor.created_at } }, { created_at: cursor.created_at, id: { lt: cursor.id } }],
      },
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      take,
    });
    return envelope(rows, limit);
  }
  const rows = await fetch({
    where: {
      created_at: { gte: cursor.created_at },
      OR: [{ created_at: { gt: cursor.created_at } }, { created_at: cursor.created_at, id: { gt: cursor.id } }],
    },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    take,
  });
  const page = envelope(rows, limit);
  page.data.reverse();
  return page;
}

function envelope<T>(rows: T[], limit: number | undefined): ListEnvelope<T> {
  const hasMore = limit !== undefined && rows.length > limit;
  return { object: "list", has_more: hasMore, data: hasMore ? rows.slice(0, limit) : rows };
}
