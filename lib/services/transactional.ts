import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import type { Inbox, Template } from "@/lib/generated/prisma/client";
import { normalizeEmail } from "@/lib/schemas/common";
import { parseSender, sendingLimits, type SendEmailInput } from "@/lib/schemas/send-email";
import { emailSelect } from "@/lib/services/emails";
import { domainOf } from "@/lib/domain/addresses";
import { assertInboxesVerified, assertProvenSender } from "@/lib/services/sender-proof";
import { contactValues, renderEmail, variableValues, type PlaceholderValues, type RenderedEmail } from "@/lib/templating/render-email";
import { attachmentMeta, storeAttachments, type AttachmentFile } from "./email-attachments";
import { assertKeyMaySendFrom, assertNotSuppressed, recipientsOf, scheduleOf, type Recipients } from "./transactional-checks";

const orNull = (value: string | null | undefined) => (value ? value : null);

/**
 * One email a request asks for: its fields and, for POST /v1/emails alone, its spooled attachments;
 * `idempotencyKey`, its own key when emails of one call have each their own (SMTP submission).
 */
export type EmailRequest = { input: SendEmailInput; attachments: AttachmentFile[]; idempotencyKey?: string | null };

type Sender = { name: string | null; address: string };

/** Everything decided about one email before anything is written. */
type Planned = {
  request: EmailRequest;
  prefix: string;
  inbox: Inbox | null;
  template: Template | null;
  from: Sender;
  recipients: Recipients;
  contactId: string | null;
  rendered: RenderedEmail;
  scheduledAt: Date | null;
};

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
  const prefixOf = (i: number) => (prefixed ? `${i}.` : "");
  const inboxIds = distinct(requests.map((r) => r.input.inbox_id));
  const templateIds = distinct(requests.map((r) => r.input.template_id));
  const [inboxes, templates] = await Promise.all([
    inboxIds.length > 0 ? tx.inbox.findMany({ where: { organization_id, id: { in: inboxIds } } }).then(byId) : new Map<string, Inbox>(),
    templateIds.length > 0 ? tx.template.findMany({ where: { organization_id, id: { in: templateIds } } }).then(byId) : new Map<string, Template>(),
  ]);
  const partial = requests.map((request, i) => {
    const { input } = request;
    const inbox = input.inbox_id ? (inboxes.get(input.inbox_id) ?? null) : null;
    if (input.inbox_id && !inbox) throw invalidField(`${prefixOf(i)}inbox_id`, "no such inbox in this organization");
    const template = input.template_id ? (templates.get(input.template_id) ?? null) : null;
    if (input.template_id && !template) throw invalidField(`${prefixOf(i)}template_id`, "no such template in this organization");
    const given = input.from ? parseSender(input.from) : null;
    const from = given ?? (inbox ? { name: inbox.from_name ?? inbox.name, address: inbox.from_email } : null);
    if (!from) throw invalidField(`${prefixOf(i)}from`, "is required without an inbox_id");
    return { request, prefix: prefixOf(i), inbox, template, from, recipients: recipientsOf(input) };
  });

  assertKeyMaySendFrom(
    ctx,
    partial.map((p) => ({ address: p.from.address, path: `${p.prefix}${p.request.input.from ? "from" : "inbox_id"}` })),
  );
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
  return partial.map((p) => {
    const { input } = p.request;
    const contact = contactByEmail.get(normalizeEmail(p.recipients.to[0]));
    const fromVariables = variableValues(input.variables ?? {});
    const fromContact: PlaceholderValues = contact ? contactValues(contact) : () => undefined;
    const rendered = renderEmail(
      {
        subject: input.subject ?? p.template?.subject ?? "",
        html: input.html ?? orNull(p.template?.html_content),
        text: input.text ?? orNull(p.template?.text_content),
        previewText: input.template_id && !input.html ? p.template?.preview_text : null,
      },
      { values: (name) => fromVariables(name) ?? fromContact(name) },
    );
    if (!rendered.subject) throw invalidField(`${p.prefix}subject`, "is required: the template has no subject");
    const scheduledAt = scheduleOf(input.scheduled_at, now, sendingLimits.scheduleDays, `${p.prefix}scheduled_at`);
    return { ...p, contactId: contact?.id ?? null, rendered, scheduledAt };
  });
}

const replyToOf = (p: Planned) => {
  const given = p.request.input.reply_to;
  if (given !== undefined) return (typeof given === "string" ? [given] : given).map((a) => a.trim()).join(", ");
  return p.inbox?.reply_to ?? null;
};

/** One email as the insert reads it (jsonb_to_recordset): everything but the ids, which the database draws. */
function row(p: Planned, now: Date, idempotencyKey: string | null) {
  const headers = p.request.input.headers ?? {};
  return {
    idempotency_key: p.request.idempotencyKey ?? idempotencyKey,
    sender_domain: domainOf(p.from.address),
    from_email: p.from.address,
    from_name: p.from.name,
    to_email: p.recipients.to[0],
    to_addresses: p.recipients.to,
    cc: p.recipients.cc,
    bcc: p.recipients.bcc,
    reply_to: replyToOf(p),
    subject: p.rendered.subject,
    html_content: p.rendered.html,
    text_content: p.rendered.text,
    template_id: p.template?.id ?? null,
    contact_id: p.contactId,
    inbox_id: p.inbox?.id ?? null,
    tags: p.request.input.tags ?? [],
    custom_headers: headers,
    attachments: p.request.attachments.map(attachmentMeta),
    status: p.scheduledAt !== null && p.scheduledAt > now ? "scheduled" : "queued",
    scheduled_at: p.scheduledAt?.toISOString() ?? null,
    track_opens: p.request.input.track_opens ?? true,
    track_clicks: p.request.input.track_clicks ?? true,
    utm: p.request.input.utm ?? null,
  };
}

/** The statement that writes planned emails (their `row`s, as JSON) and their threads; with `keyed`, their idempotency keys too. */
function writeStatement(ctx: OrgContext, rows: string, keyed: boolean): Prisma.Sql {
  const organizationId = ctx.organizationId;
  // With keys: only the rows whose key this statement takes (new, or expired) are written, and each
  // key's answer is its email's id; a row whose key another request holds is left out (a repeat).
  const keys = keyed
    ? Prisma.sql`,
    k AS (
      INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response)
      SELECT ${organizationId}::uuid, idempotency_key, request_hash, 201, jsonb_build_object('id', id::text) FROM r WHERE idempotency_key IS NOT NULL
      ON CONFLICT (organization_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, status_code = 201, response = EXCLUDED.response, created_at = now()
        WHERE idempotency_keys.created_at < now() - interval '24 hours'
      RETURNING key),
    go AS (SELECT * FROM r WHERE idempotency_key IS NULL OR idempotency_key IN (SELECT key FROM k))`
    : Prisma.empty;
  const source = keyed ? Prisma.sql`go` : Prisma.sql`r`;
  const created = keyed ? Prisma.sql`idempotency_key IS NULL OR idempotency_key IN (SELECT key FROM k)` : Prisma.sql`true`;
  return Prisma.sql`
    WITH r AS MATERIALIZED (
      SELECT r.*, o.ord, uuid_v7() AS id, uuid_v7() AS thread_id
      FROM jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS o(rec, ord), LATERAL jsonb_to_record(o.rec) AS r(
        idempotency_key text, request_hash text, sender_domain text, from_email text, from_name text, to_email text, to_addresses text[], cc text[],
        bcc text[], reply_to text, subject text, html_content text, text_content text, template_id uuid, contact_id uuid, inbox_id uuid, tags text[],
        custom_headers jsonb, attachments jsonb, status text, scheduled_at timestamptz, track_opens boolean, track_clicks boolean, utm jsonb))${keys},
    threads AS (
      INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id)
      SELECT thread_id, ${organizationId}::uuid, subject, contact_id, inbox_id FROM ${source}),
    emails AS (
      INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, to_addresses, cc, bcc, reply_to, subject,
        html_content, text_content, template_id, contact_id, inbox_id, thread_id, tags, custom_headers, headers, attachments,
        api_key_id, idempotency_key, status, scheduled_at, track_opens, track_clicks, utm)
      SELECT id, ${organizationId}::uuid, '<' || id || '@' || sender_domain || '>', from_email, from_name, to_email, to_addresses, cc, bcc,
        reply_to, subject, html_content, text_content, template_id, contact_id, inbox_id, thread_id, tags, custom_headers, custom_headers,
        attachments, ${ctx.apiKeyId}::uuid, idempotency_key, status::"EmailStatus", scheduled_at, track_opens, track_clicks, utm
      FROM ${source})
    SELECT id::text, (${created}) AS created FROM r ORDER BY ord`;
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
  const rows = JSON.stringify(planned.map((p) => row(p, now, options.idempotencyKey)));
  const emailIds = (await tx.$queryRaw<{ id: string }[]>(writeStatement(ctx, rows, false))).map((c) => c.id);
  for (const [i, p] of planned.entries()) {
    if (p.request.attachments.length > 0) await storeAttachments(tx, ctx.organizationId, emailIds[i], p.request.attachments);
  }
  return emailIds;
}

/** An email of a group with its idempotency key and the hash of its request, for `createEmailsAtOnce`. */
export type KeyedRequest = EmailRequest & { idempotencyKey: string | null; requestHash: string | null };

/**
 * Emails without attachments, each with its own idempotency key, written by one statement outside
 * any transaction (SMTP submission's groups): the checks in one round trip, then the keys, threads
 * and emails in another. A message whose key was taken before (or by another request meanwhile)
 * creates nothing and answers what the key answered, or a 409 CONFLICT error in its place when its
 * body differs. All or nothing for what the checks refuse (the caller retries one by one).
 */
export async function createEmailsAtOnce(ctx: OrgContext, requests: KeyedRequest[]): Promise<({ id: string } | AppError)[]> {
  const now = new Date();
  const planned = await plan(db, ctx, requests, true, now);
  const rows = JSON.stringify(planned.map((p, i) => ({ ...row(p, now, null), request_hash: requests[i].requestHash })));
  const written = await db.$queryRaw<{ id: string; created: boolean }[]>(writeStatement(ctx, rows, true));
  const repeats = requests.filter((r, i) => !written[i].created && r.idempotencyKey !== null).map((r) => r.idempotencyKey!);
  const earlier = new Map(
    repeats.length === 0
      ? []
      : (
          await db.idempotencyKey.findMany({
            where: { organization_id: ctx.organizationId, key: { in: repeats } },
            select: { key: true, request_hash: true, response: true },
          })
        ).map((k) => [k.key, k]),
  );
  return written.map((w, i) => {
    if (w.created) return { id: w.id };
    const before = earlier.get(requests[i].idempotencyKey ?? "");
    return before && before.request_hash === requests[i].requestHash
      ? (before.response as { id: string })
      : new AppError("CONFLICT", "This Idempotency-Key was used with a different request in the last 24 hours");
  });
}

/** The records of emails just created, in the order of `ids`. */
export async function emailRecords(tx: Prisma.TransactionClient, ctx: OrgContext, ids: string[]) {
  const rows = await tx.email.findMany({ where: { organization_id: ctx.organizationId, id: { in: ids } }, select: emailSelect });
  const byEmailId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byEmailId.get(id)!);
}
