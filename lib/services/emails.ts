import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import type { Prisma } from "@/lib/generated/prisma/client";
import { EMAIL_EVENT_TIMES, type ListEmailsQuery } from "@/lib/schemas/emails";

/** The columns of the Email record; queue bookkeeping (attempts, locks, idempotency) stays inside. */
export const emailSelect = {
  id: true,
  organization_id: true,
  message_id: true,
  direction: true,
  from_email: true,
  from_name: true,
  to_email: true,
  to: true,
  cc: true,
  bcc: true,
  reply_to: true,
  subject: true,
  html_content: true,
  text_content: true,
  template_id: true,
  broadcast_id: true,
  thread_id: true,
  parent_email_id: true,
  contact_id: true,
  inbox_id: true,
  status: true,
  provider_message_id: true,
  metadata: true,
  tags: true,
  ...EMAIL_EVENT_TIMES,
  bounce_type: true,
  bounce_status: true,
  bounce_diagnostic: true,
  replied_at: true,
  unsubscribed_at: true,
  scheduled_at: true,
  created_at: true,
  attachments: true,
  clicked_links: true,
  opens: true,
  track_opens: true,
  track_clicks: true,
  utm: true,
} satisfies Prisma.EmailSelect;

export type EmailListPage = { mode: "page"; page: number; limit: number } | ({ mode: "cursor" } & CursorParams);

// Prisma's `contains`/`endsWith` pass LIKE wildcards through; a filter value is matched literally.
const literal = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function filterWhere(ctx: OrgContext, query: ListEmailsQuery): Prisma.EmailWhereInput {
  const where: Prisma.EmailWhereInput = { organization_id: ctx.organizationId };
  if (query.to) where.to_email = { contains: literal(query.to.trim()), mode: "insensitive" };
  if (query.domain) where.from_email = { endsWith: `@${literal(query.domain.trim().replace(/^@/, ""))}`, mode: "insensitive" };
  if (query.broadcast_id) where.broadcast_id = query.broadcast_id;
  if (query.contact_id) where.contact_id = query.contact_id;
  if (query.email_id) where.id = query.email_id;
  if (query.template_id) where.template_id = query.template_id;
  if (query.status) where.status = query.status;
  return where;
}

/**
 * The ids of a page when the recipient filter is given, newest first, through an ordering no index
 * serves: PostgreSQL then reads the matches from the trigram index on to_email and keeps the newest.
 * Ordered by the created_at index instead, it bets that matches are spread evenly and reads every
 * email of the organization when they are old (7.6 s for "user12" at a million). The same filters
 * as filterWhere, in SQL, since Prisma cannot order by an expression.
 */
async function recipientPageIds(ctx: OrgContext, query: ListEmailsQuery & { to: string }, skip: number, take: number): Promise<string[]> {
  const values: unknown[] = [ctx.organizationId, `%${literal(query.to.trim())}%`];
  const conditions = ["organization_id = $1::uuid", "to_email ILIKE $2"];
  const add = (condition: (param: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (query.domain) add((p) => `from_email ILIKE ${p}`, `%@${literal(query.domain.trim().replace(/^@/, ""))}`);
  if (query.broadcast_id) add((p) => `broadcast_id = ${p}::uuid`, query.broadcast_id);
  if (query.contact_id) add((p) => `contact_id = ${p}::uuid`, query.contact_id);
  if (query.email_id) add((p) => `id = ${p}::uuid`, query.email_id);
  if (query.template_id) add((p) => `template_id = ${p}::uuid`, query.template_id);
  if (query.status) add((p) => `status = ${p}::"EmailStatus"`, query.status);
  values.push(take, skip);
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM emails WHERE ${conditions.join(" AND ")}
     ORDER BY created_at + interval '0 seconds' DESC, id DESC LIMIT $${values.length - 1} OFFSET $${values.length}::bigint`,
    values,
  );
  return rows.map((row) => row.id);
}

async function pageRows(ctx: OrgContext, query: ListEmailsQuery, where: Prisma.EmailWhereInput, skip: number, take: number) {
  const orderBy: Prisma.EmailOrderByWithRelationInput[] = [{ created_at: "desc" }, { id: "desc" }];
  if (!query.to) return db.email.findMany({ where, orderBy, skip, take, select: emailSelect });
  const ids = await recipientPageIds(ctx, { ...query, to: query.to }, skip, take);
  if (ids.length === 0) return [];
  return db.email.findMany({ where: { id: { in: ids }, organization_id: ctx.organizationId }, orderBy, select: emailSelect });
}

export async function listEmails(ctx: OrgContext, query: ListEmailsQuery, page: EmailListPage) {
  const where = filterWhere(ctx, query);
  if (page.mode === "cursor") {
    return cursorPage(
      page,
      (args) => db.email.findMany({ where: { AND: [where, args.where] }, orderBy: args.orderBy, take: args.take, select: emailSelect }),
      // A cursor stays usable when its email stops matching a filter (its status moved on, say).
      (id) => db.email.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true, created_at: true } }),
    );
  }
  const [total, data] = await Promise.all([db.email.count({ where }), pageRows(ctx, query, where, (page.page - 1) * page.limit, page.limit)]);
  return { data, pagination: { page: page.page, limit: page.limit, total, pages: Math.ceil(total / page.limit) } };
}

/** One page of listEmails (page mode) without its total: what the dashboard renders with the page, before the total is counted. */
export async function listEmailRows(ctx: OrgContext, query: ListEmailsQuery, page: { page: number; limit: number }) {
  return pageRows(ctx, query, filterWhere(ctx, query), (page.page - 1) * page.limit, page.limit);
}

/**
 * An email's event as its detail lists it: the built-in event's name without its prefix
 * (`email.opened` → `opened`; a soft bounce stays `soft_bounced`), its properties as `data`.
 */
function emailEvent(event: { id: string; name: string; properties: Prisma.JsonValue; occurred_at: Date }) {
  const data = (event.properties ?? {}) as Record<string, unknown>;
  const soft = event.name === "email.bounced" && (data.bounce as { type?: string } | undefined)?.type === "soft";
  return { id: event.id, type: soft ? "soft_bounced" : event.name.replace(/^(email|contact)\./, ""), data, created_at: event.occurred_at };
}

export async function getEmail(ctx: OrgContext, id: string) {
  const row = await db.email.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { ...emailSelect, headers: true } });
  if (!row) throw notFound("Email");
  const events = await db.event.findMany({
    where: { organization_id: ctx.organizationId, email_id: id },
    orderBy: [{ occurred_at: "asc" }, { id: "asc" }],
    select: { id: true, name: true, properties: true, occurred_at: true },
  });
  return { ...row, events: events.map(emailEvent) };
}
