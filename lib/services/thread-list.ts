import type { OrgContext } from "@/lib/domain/context";
import { PaginationError } from "@/lib/domain/errors";
import { pool } from "@/lib/db/pool";
import type { Thread } from "@/lib/generated/prisma/client";
import type { CursorParams, ListEnvelope } from "@/lib/schemas/pagination";
import type { ListThreadsQuery, ThreadSummary } from "@/lib/schemas/threads";

type Position = Pick<Thread, "last_message_at" | "id">;
type Row = Omit<ThreadSummary, "last_message_at" | "snippet"> & { last_message_at: Date; snippet: string | null };

const FILTERS = ["category", "inbox_id", "broadcast_id", "automation_id"] as const;
const CASTS = { category: `"ThreadCategory"`, inbox_id: "uuid", broadcast_id: "uuid", automation_id: "uuid" } as const;

// A broadcast's thread keeps the subject template (`Idea for {{first_name}}`); the latest reply's
// subject, without its "Re:", is what the recipient and the rep see.
const SUBJECT_OF_REPLY = String.raw`regexp_replace(r.subject, '^(\s*(re|aw|sv|antw|wg|fwd?|tr|rv)\s*:\s*)+', '', 'i')`;

/**
 * The statement of one page of the unified inbox: replied threads (a category is set) newest
 * activity first, each index of threads_inbox_* serving one filter; then, for the page's threads
 * only, an index probe each for a draft and for the latest reply (its sender, subject and text).
 * Named per filter combination and page size, so PostgreSQL parses and plans each once per
 * connection. The benchmark runs this same statement through pg as its baseline.
 */
export function threadPageQuery(organizationId: string, query: ListThreadsQuery, take: number, cursor?: { position: Position; newer: boolean }) {
  const values: unknown[] = [organizationId];
  const conditions = ["t.organization_id = $1::uuid", "t.category IS NOT NULL"];
  const used = FILTERS.filter((name) => query[name] !== undefined);
  for (const name of used) {
    values.push(query[name]);
    conditions.push(`t.${name} = $${values.length}::${CASTS[name]}`);
  }
  if (cursor) {
    values.push(cursor.position.last_message_at, cursor.position.id);
    conditions.push(`(t.last_message_at, t.id) ${cursor.newer ? ">" : "<"} ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  // A literal, not a parameter: a generic plan of a prepared statement guesses a tenth of the table
  // for `LIMIT $n` and may then hash every draft of every organization instead of probing 20.
  if (!Number.isInteger(take) || take < 1 || take > 101) throw new Error(`threadPageQuery: take ${take}`);
  const direction = cursor?.newer ? "ASC" : "DESC";
  const text = `
    SELECT t.id, t.contact_id, t.inbox_id, t.broadcast_id, coalesce(nullif(${SUBJECT_OF_REPLY}, ''), t.subject) AS subject,
      t.category::text AS category, t.last_message_at, dr.thread_id IS NOT NULL AS has_draft,
      r.from_email, r.from_name, left(r.text_content, 400) AS snippet
    FROM (SELECT * FROM threads t WHERE ${conditions.join(" AND ")} ORDER BY t.last_message_at ${direction}, t.id ${direction} LIMIT ${take}) t
    LEFT JOIN LATERAL (
      SELECT d.thread_id FROM thread_drafts d WHERE d.thread_id = t.id AND d.organization_id = t.organization_id LIMIT 1) dr ON true
    LEFT JOIN LATERAL (
      SELECT e.from_email, e.from_name, e.subject, e.text_content FROM emails e
      WHERE e.thread_id = t.id AND e.organization_id = t.organization_id AND e.direction = 'inbound'
      ORDER BY e.created_at DESC, e.id DESC LIMIT 1) r ON true
    ORDER BY t.last_message_at ${direction}, t.id ${direction}`;
  const name = `threads-page-${used.join("-") || "all"}${cursor ? (cursor.newer ? "-before" : "-after") : ""}-${take}`;
  return { name, text, values };
}

/** The cursor's thread, anywhere in the unified inbox: a thread whose category changed since its page was read still pages on. */
async function locate(organizationId: string, threadId: string): Promise<Position | null> {
  const { rows } = await pool.query<Position>({
    name: "threads-page-cursor",
    text: "SELECT last_message_at, id FROM threads WHERE organization_id = $1::uuid AND id = $2::uuid AND category IS NOT NULL",
    values: [organizationId, threadId],
  });
  return rows[0] ?? null;
}

const summary = (row: Row): ThreadSummary => ({
  ...row,
  last_message_at: row.last_message_at.toISOString(),
  snippet: (row.snippet ?? "").replace(/\s+/g, " ").trim().slice(0, 200),
});

/** `GET /v1/threads`: the unified inbox, one cursor page. */
export async function listThreads(ctx: OrgContext, query: ListThreadsQuery, page: CursorParams): Promise<ListEnvelope<ThreadSummary>> {
  const limit = page.limit ?? 20;
  const cursorId = page.after ?? page.before;
  let cursor: { position: Position; newer: boolean } | undefined;
  if (cursorId !== undefined) {
    const position = await locate(ctx.organizationId, cursorId);
    if (!position) throw new PaginationError(`${page.after ? "after" : "before"} does not name an item of this list`);
    cursor = { position, newer: page.before !== undefined };
  }
  const { rows } = await pool.query<Row>(threadPageQuery(ctx.organizationId, query, limit + 1, cursor));
  const hasMore = rows.length > limit;
  const data = (hasMore ? rows.slice(0, limit) : rows).map(summary);
  if (cursor?.newer) data.reverse();
  return { object: "list", has_more: hasMore, data };
}
