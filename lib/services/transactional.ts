import type { OrgContext } from "@/lib/domain/context";
import { Prisma } from "@/lib/db";
import type { Inbox, Template } from "@/lib/generated/prisma/client";
import { normalizeEmail } from "@/lib/schemas/common";
import type { SendEmailInput } from "@/lib/schemas/send-email";
import { emailSelect } from "@/lib/services/emails";
import { assertInboxesVerified, assertProvenSender } from "@/lib/services/sender-proof";
import { storeAttachments, type AttachmentFile } from "./email-attachments";
import { assertNotSuppressed } from "./transactional-checks";
import { assertKeyMaySendAll, emailRow, finish, prepare, type Planned } from "./transactional-plan";

/**
 * One email a request asks for: its fields and, for POST /v1/emails alone, its spooled attachments;
 * `idempotencyKey`, its own key when emails of one call have each their own (SMTP submission).
 */
export type EmailRequest = { input: SendEmailInput; attachments: AttachmentFile[]; idempotencyKey?: string | null };

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
const distinct = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))];

type Checks = {
  verifiedDomains: Set<string>;
  suppressed: { email: string; reason: string; created_at: string }[];
  contacts: { id: string; email: string; first_name: string | null; last_name: string | null; metadata: unknown }[];
};

/**
 * What the checks of a request read, in one round trip: the organization's verified domains, which
 * of its recipients are suppressed, and the contacts of the first To addresses (their placeholders).
 */
async function loadChecks(tx: Prisma.TransactionClient, organizationId: string, recipients: string[], firstTos: string[]): Promise<Checks> {
  const [row] = await tx.$queryRaw<{ domains: string[]; suppressed: Checks["suppressed"]; contacts: Checks["contacts"] }[]>`
    SELECT
      (SELECT coalesce(json_agg(lower(name)), '[]') FROM domains WHERE organization_id = ${organizationId}::uuid AND status = 'verified') AS domains,
      (SELECT coalesce(json_agg(json_build_object('email', email, 'reason', reason, 'created_at', created_at)), '[]')
         FROM suppressions WHERE organization_id = ${organizationId}::uuid AND email = ANY(${[...new Set(recipients)]}::text[])) AS suppressed,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'email', email, 'first_name', first_name, 'last_name', last_name, 'metadata', metadata)), '[]')
         FROM contacts WHERE organization_id = ${organizationId}::uuid AND email = ANY(${[...new Set(firstTos)]}::text[])) AS contacts`;
  return { verifiedDomains: new Set(row.domains), suppressed: row.suppressed, contacts: row.contacts };
}

async function plan(tx: Prisma.TransactionClient, ctx: OrgContext, requests: EmailRequest[], prefixed: boolean, now: Date): Promise<Planned[]> {
  const organization_id = ctx.organizationId;
  const inboxIds = distinct(requests.map((r) => r.input.inbox_id));
  const templateIds = distinct(requests.map((r) => r.input.template_id));
  const [inboxes, templates] = await Promise.all([
    inboxIds.length > 0 ? tx.inbox.findMany({ where: { organization_id, id: { in: inboxIds } } }).then(byId) : new Map<string, Inbox>(),
    templateIds.length > 0 ? tx.template.findMany({ where: { organization_id, id: { in: templateIds } } }).then(byId) : new Map<string, Template>(),
  ]);
  const partial = requests.map((request, i) => prepare(request, prefixed ? `${i}.` : "", inboxes, templates));
  assertKeyMaySendAll(ctx, partial);
  const viaInbox = partial.filter((p) => p.inbox);
  if (viaInbox.length > 0)
    await assertInboxesVerified(
      tx,
      ctx,
      viaInbox.map((p) => ({ id: p.inbox!.id, path: `${p.prefix}inbox_id` })),
    );
  const checks = await loadChecks(
    tx,
    organization_id,
    partial.flatMap((p) => [...p.recipients.to, ...p.recipients.cc, ...p.recipients.bcc].map(normalizeEmail)),
    partial.map((p) => normalizeEmail(p.recipients.to[0])),
  );
  // One check per distinct sender and path: a batch of a hundred from one address asks once.
  const proven = new Set<string>();
  for (const p of partial) {
    const key = `${p.from.address.toLowerCase()}|${p.inbox?.id ?? ""}`;
    if (proven.has(key)) continue;
    await assertProvenSender(tx, ctx, p.from.address, `${p.prefix}from`, p.inbox ? { inbox: p.inbox } : { relay: true }, checks.verifiedDomains);
    proven.add(key);
  }
  assertNotSuppressed(checks.suppressed, partial);
  const contactByEmail = new Map(checks.contacts.map((c) => [c.email, c]));
  return partial.map((p) => finish(p, contactByEmail.get(normalizeEmail(p.recipients.to[0])), now));
}

/** The statement that writes planned emails (their `emailRow`s, as JSON) and their threads, answering the new ids in order. */
function writeStatement(ctx: OrgContext, rows: string): Prisma.Sql {
  const organizationId = ctx.organizationId;
  return Prisma.sql`
    WITH r AS MATERIALIZED (
      SELECT r.*, o.ord, uuid_v7() AS id, uuid_v7() AS thread_id
      FROM jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS o(rec, ord), LATERAL jsonb_to_record(o.rec) AS r(
        idempotency_key text, sender_domain text, from_email text, from_name text, to_email text, to_addresses text[], cc text[],
        bcc text[], reply_to text, subject text, html_content text, text_content text, template_id uuid, contact_id uuid, inbox_id uuid, tags text[],
        custom_headers jsonb, attachments jsonb, status text, scheduled_at timestamptz, track_opens boolean, track_clicks boolean, utm jsonb)),
    threads AS (
      INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id)
      SELECT thread_id, ${organizationId}::uuid, subject, contact_id, inbox_id FROM r),
    emails AS (
      INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, to_addresses, cc, bcc, reply_to, subject,
        html_content, text_content, template_id, contact_id, inbox_id, thread_id, tags, custom_headers, headers, attachments,
        api_key_id, idempotency_key, status, scheduled_at, track_opens, track_clicks, utm)
      SELECT id, ${organizationId}::uuid, '<' || id || '@' || sender_domain || '>', from_email, from_name, to_email, to_addresses, cc, bcc,
        reply_to, subject, html_content, text_content, template_id, contact_id, inbox_id, thread_id, tags, custom_headers, custom_headers,
        attachments, ${ctx.apiKeyId}::uuid, idempotency_key, status::"EmailStatus", scheduled_at, track_opens, track_clicks, utm
      FROM r)
    SELECT id::text FROM r ORDER BY ord`;
}

/**
 * Creates the emails of one request in the caller's transaction, set-based: one lookup of inboxes,
 * templates, suppressions and contacts for all of them, and one statement that writes their threads
 * and the emails and answers the new ids in request order (a batch of 100 costs about what one does,
 * plus the rendering; Prisma's createMany took 100-250 ms for the hundred rows). All or nothing: any
 * email refused refuses the request, its issues naming the index.
 */
export async function createEmails(
  tx: Prisma.TransactionClient,
  ctx: OrgContext,
  requests: EmailRequest[],
  options: { idempotencyKey: string | null; batch: boolean; now?: Date },
): Promise<string[]> {
  const now = options.now ?? new Date();
  const planned = await plan(tx, ctx, requests, options.batch, now);
  const rows = JSON.stringify(planned.map((p) => emailRow(p, now, options.idempotencyKey)));
  const emailIds = (await tx.$queryRaw<{ id: string }[]>(writeStatement(ctx, rows))).map((c) => c.id);
  for (const [i, p] of planned.entries()) {
    if (p.request.attachments.length > 0) await storeAttachments(tx, ctx.organizationId, emailIds[i], p.request.attachments);
  }
  return emailIds;
}

/** The records of emails just created, in the order of `ids`. */
export async function emailRecords(tx: Prisma.TransactionClient, ctx: OrgContext, ids: string[]) {
  const rows = await tx.email.findMany({ where: { organization_id: ctx.organizationId, id: { in: ids } }, select: emailSelect });
  const byEmailId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byEmailId.get(id)!);
}
