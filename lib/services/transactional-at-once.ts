import { pool } from "@/lib/db/pool";
import type { OrgContext } from "@/lib/domain/context";
import { domainOf } from "@/lib/domain/addresses";
import { AppError } from "@/lib/domain/errors";
import type { Contact, IdempotencyKey, Suppression } from "@/lib/generated/prisma/client";
import { normalizeEmail } from "@/lib/schemas/common";
import { idempotencyConflict } from "./idempotency";
import { domainNotVerified } from "./sender-proof";
import { assertNotSuppressed, recipientsOf } from "./transactional-checks";
import { assertKeyMaySendAll, emailRow, finish, prepare, type PlanContact, type Planned, type Prepared } from "./transactional-plan";
import type { EmailRequest } from "./transactional";

/** An email of a group with its idempotency key and the hash of its request, for `createEmailsAtOnce`. */
export type KeyedRequest = EmailRequest & { idempotencyKey: string | null; requestHash: string | null };

/** What createEmailsAtOnce takes: no files (their parts are written in a transaction of their own), no inbox or template (rows to read first). */
export const takesAtOnce = (request: EmailRequest) => request.attachments.length === 0 && !request.input.inbox_id && !request.input.template_id;

// The group's checks and writes in one statement, in the order POST /v1/emails applies them to one
// email: a key already taken in the last 24 hours answers first (its email's id, or a conflict), then
// the sender's domain, then the suppressed recipients; only the emails that pass take their key and
// are written, with their threads. `refused`: the email failed a check of its own before (it only
// learns whether its key was taken). A contact's id is looked up here unless the rendering needed
// the contact itself (`contact_given`, read before). A key another request takes meanwhile leaves
// its email unwritten: the INSERT waits for that request's commit and then conflicts.
const WRITE_GROUP = `
  WITH r AS MATERIALIZED (
    SELECT r.*, o.ord, uuid_v7() AS id, uuid_v7() AS thread_id
    FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS o(rec, ord), LATERAL jsonb_to_record(o.rec) AS r(
      refused boolean, recipients text[], first_to text, contact_given boolean, idempotency_key text, request_hash text,
      sender_domain text, from_email text, from_name text, to_email text, to_addresses text[], cc text[], bcc text[], reply_to text, subject text,
      html_content text, text_content text, contact_id uuid, tags text[], custom_headers jsonb, status text, scheduled_at timestamptz,
      track_opens boolean, track_clicks boolean, utm jsonb)),
  earlier AS (
    SELECT key, request_hash, response FROM idempotency_keys
    WHERE organization_id = $1::uuid AND key IN (SELECT idempotency_key FROM r) AND created_at >= now() - interval '24 hours'),
  checked AS MATERIALIZED (
    SELECT r.*, e.key IS NOT NULL AS seen, e.request_hash AS earlier_hash, e.response AS earlier_response,
      coalesce(r.sender_domain IN (SELECT lower(name) FROM domains WHERE organization_id = $1::uuid AND status = 'verified'), false) AS verified,
      (SELECT json_agg(json_build_object('email', s.email, 'reason', s.reason, 'created_at', s.created_at))
         FROM suppressions s WHERE s.organization_id = $1::uuid AND s.email = ANY(r.recipients)) AS suppressed,
      CASE WHEN r.contact_given THEN r.contact_id
        ELSE (SELECT c.id FROM contacts c WHERE c.organization_id = $1::uuid AND c.email = r.first_to) END AS found_contact_id
    FROM r LEFT JOIN earlier e ON e.key = r.idempotency_key),
  ok AS (SELECT * FROM checked WHERE NOT refused AND NOT seen AND verified AND suppressed IS NULL),
  k AS (
    INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response)
    SELECT $1::uuid, idempotency_key, request_hash, 201, jsonb_build_object('id', id::text) FROM ok WHERE idempotency_key IS NOT NULL
    ON CONFLICT (organization_id, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, status_code = 201, response = EXCLUDED.response, created_at = now()
      WHERE idempotency_keys.created_at < now() - interval '24 hours'
    RETURNING key),
  go AS (SELECT * FROM ok WHERE idempotency_key IS NULL OR idempotency_key IN (SELECT key FROM k)),
  threads AS (
    INSERT INTO threads (id, organization_id, subject, contact_id)
    SELECT thread_id, $1::uuid, subject, found_contact_id FROM go),
  emails AS (
    INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, to_addresses, cc, bcc, reply_to, subject,
      html_content, text_content, contact_id, thread_id, tags, custom_headers, headers, attachments,
      api_key_id, idempotency_key, status, scheduled_at, track_opens, track_clicks, utm)
    SELECT id, $1::uuid, '<' || id || '@' || sender_domain || '>', from_email, from_name, to_email, to_addresses, cc, bcc,
      reply_to, subject, html_content, text_content, found_contact_id, thread_id, tags, custom_headers, custom_headers, '[]'::jsonb,
      $2::uuid, idempotency_key, status::"EmailStatus", scheduled_at, track_opens, track_clicks, utm
    FROM go)
  SELECT id::text, id IN (SELECT id FROM go) AS created, seen, earlier_hash, earlier_response, verified, suppressed FROM checked ORDER BY ord`;

const CONTACTS = `
  SELECT id, email, first_name, last_name, metadata FROM contacts WHERE organization_id = $1::uuid AND email = ANY($2::text[])`;

const KEYS = `SELECT key, request_hash, response FROM idempotency_keys WHERE organization_id = $1::uuid AND key = ANY($2::text[])`;

type Earlier = Pick<IdempotencyKey, "key" | "request_hash" | "response">;
type Suppressed = Pick<Suppression, "email" | "reason"> & { created_at: string };
type Written = {
  id: string;
  created: boolean;
  seen: boolean;
  earlier_hash: IdempotencyKey["request_hash"] | null;
  earlier_response: unknown;
  verified: boolean;
  suppressed: Suppressed[] | null;
};

/** One email of the group as far as it was decided without the database: refused already (`early`, `late`), or planned. */
type Message = {
  request: KeyedRequest;
  prepared: Prepared | null;
  early: AppError | null;
  planned: Planned | null;
  late: AppError | null;
  contactGiven: boolean;
};

const noRows = new Map<never, never>();

/** The AppError `decide` throws, as a value; any other error goes on. */
function refusal<T>(decide: () => T): T | AppError {
  try {
    return decide();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** What a key taken before answers a message: its first answer for the same body, a conflict for another (or for a key gone meanwhile). */
const replayOf = (earlier: { request_hash: string | null; response: unknown } | undefined, request: KeyedRequest): { id: string } | AppError =>
  earlier && earlier.request_hash === request.requestHash ? (earlier.response as { id: string }) : idempotencyConflict();

const firstTo = (request: EmailRequest) => normalizeEmail(recipientsOf(request.input).to[0]);

/** Plans every email without the database; those whose rendering asks for their contact read the contacts first (one round trip). */
async function planAll(ctx: OrgContext, requests: KeyedRequest[], now: Date): Promise<Message[]> {
  const needContact: Message[] = [];
  const messages = requests.map((request): Message => {
    const prepared = refusal(() => {
      const p = prepare(request, "", noRows, noRows);
      assertKeyMaySendAll(ctx, [p]);
      return p;
    });
    if (prepared instanceof AppError) return { request, prepared: null, early: prepared, planned: null, late: null, contactGiven: false };
    let asked = false;
    const planned = refusal(() => finish(prepared, undefined, now, () => (asked = true)));
    const message = {
      request,
      prepared,
      early: null,
      planned: planned instanceof AppError ? null : planned,
      late: planned instanceof AppError ? planned : null,
      contactGiven: asked,
    };
    if (asked) needContact.push(message);
    return message;
  });
  if (needContact.length === 0) return messages;
  const { rows } = await pool.query<PlanContact & Pick<Contact, "id">>({
    name: "emails-at-once-contacts",
    text: CONTACTS,
    values: [ctx.organizationId, [...new Set(needContact.map((m) => firstTo(m.request)))]],
  });
  const byEmail = new Map(rows.map((c) => [c.email, c]));
  for (const message of needContact) {
    const planned = refusal(() => finish(message.prepared!, byEmail.get(firstTo(message.request)), now));
    if (planned instanceof AppError) [message.planned, message.late] = [null, planned];
    else [message.planned, message.late] = [planned, null];
  }
  return messages;
}

/**
 * Emails without attachments, inbox or template, each with its own idempotency key (SMTP
 * submission's groups), checked and written by ONE statement outside any transaction, prepared
 * once per connection (`WRITE_GROUP`): the interactive transaction, the lookups and the checks
 * cost five round trips more, each a wait on a loaded machine. Each email gets its own answer, as
 * POST /v1/emails would give it alone: its id, the id its key answered before (same body), or its
 * error (a conflicting key, a domain not verified, a suppressed recipient, an invalid field).
 * Contact placeholders (`{{first_name}}`) cost a round trip more, to read the contacts first.
 */
export async function createEmailsAtOnce(ctx: OrgContext, requests: KeyedRequest[]): Promise<({ id: string } | AppError)[]> {
  if (!requests.every(takesAtOnce)) throw new Error("createEmailsAtOnce takes no attachments, inbox or template");
  const now = new Date();
  const messages = await planAll(ctx, requests, now);
  const rows = messages.map((m) => ({
    ...(m.planned ? emailRow(m.planned, now, null) : { idempotency_key: m.request.idempotencyKey }),
    sender_domain: m.prepared ? domainOf(m.prepared.from.address) : null,
    refused: m.planned === null,
    recipients: m.prepared ? [...new Set([...m.prepared.recipients.to, ...m.prepared.recipients.cc, ...m.prepared.recipients.bcc].map(normalizeEmail))] : [],
    first_to: firstTo(m.request),
    contact_given: m.contactGiven,
    request_hash: m.request.requestHash,
  }));
  const { rows: written } = await pool.query<Written>({
    name: "emails-at-once-write",
    text: WRITE_GROUP,
    values: [ctx.organizationId, ctx.apiKeyId, JSON.stringify(rows)],
  });
  const answers = written.map((w, i): { id: string } | AppError | null => {
    const m = messages[i];
    if (w.created) return { id: w.id };
    if (w.seen) return replayOf({ request_hash: w.earlier_hash, response: w.earlier_response }, m.request);
    if (m.early) return m.early;
    if (!w.verified) return domainNotVerified(m.prepared!.from.address, "from", { relay: true });
    if (w.suppressed) return refusal(() => assertNotSuppressed(w.suppressed!, [m.prepared!])) as AppError;
    return m.late ?? null;
  });
  // Passed every check but found its key taken by a request that committed meanwhile: what that key answers.
  const pending = answers.flatMap((a, i) => (a === null ? [messages[i].request.idempotencyKey!] : []));
  if (pending.length === 0) return answers as ({ id: string } | AppError)[];
  const { rows: keys } = await pool.query<Earlier>({ name: "emails-at-once-keys", text: KEYS, values: [ctx.organizationId, pending] });
  const byKey = new Map(keys.map((k) => [k.key, k]));
  return answers.map((a, i) => {
    if (a !== null) return a;
    return replayOf(byKey.get(messages[i].request.idempotencyKey!), messages[i].request);
  });
}
