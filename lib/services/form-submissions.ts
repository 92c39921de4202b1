import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import { db, type Prisma } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { env } from "@/lib/env";
import type { Form } from "@/lib/generated/prisma/client";
import { convertCell, checkPropertyValue, type MetadataValue } from "@/lib/audience/property-values";
import { signedIds } from "@/lib/sending/signed-id";
import { limits } from "@/lib/schemas/common";
import { contactEmail } from "@/lib/schemas/contacts";
import { HONEYPOT_FIELD } from "@/lib/schemas/forms";
import { consentEventsCtes } from "./consent-events";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";
import { resuppressErasedSql } from "./erased-suppressions";
import { subscribeFromForm } from "./form-subscribe";

/** A confirmation link works this long after the submission. */
const CONFIRMATION_DAYS = 7;
/** Confirmation emails one address gets in an hour, whatever the forms and submitters: more would let anyone flood an inbox. */
export const CONFIRMATIONS_PER_ADDRESS_PER_HOUR = 3;

// The confirmation link names a submission, under a key of its own.
const confirmationTokens = signedIds("form-confirmation");
const readConfirmationToken = (token: string) => confirmationTokens.read(token);
export const confirmationUrl = (submissionId: string) => `${env.appUrl}/f/confirm/${confirmationTokens.sign(submissionId)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type FormProperty = { label: string; type: "string" | "number" | "boolean" | "date" };
export type PublicForm = Form & { organization: { name: string }; properties: Map<string, FormProperty> };

const PUBLIC_FORM = `
  SELECT f.*, o.name AS organization_name,
    coalesce((SELECT json_agg(json_build_object('key', p.key, 'label', p.label, 'type', p.type))
              FROM contact_properties p WHERE p.organization_id = f.organization_id AND p.key = ANY(f.fields)), '[]') AS properties
  FROM forms f JOIN organizations o ON o.id = f.organization_id
  WHERE f.id = $1::uuid`;

/**
 * A public form as its page and endpoint read it, with its organization's name and the typed
 * properties its fields name, in one query (the endpoint's hot path, on plain pg: Prisma's own work
 * per query is CPU the endpoint's rate cannot spare); any id a visitor types is a 404 unless it
 * names a form.
 */
export async function findPublicForm(id: string): Promise<PublicForm | null> {
  if (!UUID.test(id)) return null;
  const {
    rows: [row],
  } = await pool.query<Form & { organization_name: string; properties: ({ key: string } & FormProperty)[] }>(PUBLIC_FORM, [id]);
  if (!row) return null;
  const { organization_name, properties, ...form } = row;
  return { ...form, organization: { name: organization_name }, properties: new Map(properties.map(({ key, ...p }) => [key, p])) };
}

/** How long the endpoint trusts a form it read: a form changed or deleted by another web process reaches it within this time. */
const FORM_CACHE_MS = 2000;
/** Forms kept at most: the endpoint of a platform with many busy forms still reads each at most every FORM_CACHE_MS. */
const FORM_CACHE_SIZE = 1000;
const recentForms = new Map<string, { form: PublicForm; until: number }>();

/**
 * The form as the endpoint takes submissions for it, read at most every FORM_CACHE_MS (one round
 * trip fewer per submission of a busy form; unknown ids are never kept, so made-up ids cannot fill
 * the cache). A change or deletion through this process is seen at once (forgetPublicForm).
 */
async function formToSubmit(id: string): Promise<PublicForm | null> {
  const now = Date.now();
  const kept = recentForms.get(id);
  if (kept && kept.until > now) return kept.form;
  const form = await findPublicForm(id);
  recentForms.delete(id);
  if (!form) return null;
  if (recentForms.size >= FORM_CACHE_SIZE) recentForms.delete(recentForms.keys().next().value!);
  recentForms.set(id, { form, until: now + FORM_CACHE_MS });
  return form;
}

/** A form updated or deleted: the endpoint reads it afresh. */
export function forgetPublicForm(id: string) {
  recentForms.delete(id);
}

/** A submission for a form deleted since the endpoint read it: the submission's foreign key says so. */
const formGone = (error: unknown) =>
  error instanceof Error && /form_submissions_form_id_fkey/.test(`${(error as { constraint?: string }).constraint ?? ""} ${error.message}`);

export type SubmittedValues = { email: string; first_name?: string; last_name?: string; metadata: Record<string, MetadataValue> };
type Issue = { path: string; message: string };

const cellOf = (value: unknown): string | MetadataValue | null => {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return value;
  return null;
};

/**
 * The values a submission gives for the form's fields (others are ignored): the email checked as a
 * contact's, names as text, typed properties converted from text as a CSV cell is (`"42"`, `yes`,
 * ISO dates) or taken as JSON of their type. Empty inputs are left out.
 */
function readValues(form: Form, raw: Record<string, unknown>, types: Map<string, FormProperty>) {
  const issues: Issue[] = [];
  const values: SubmittedValues = { email: "", metadata: {} };
  for (const key of form.fields) {
    const cell = cellOf(raw[key]);
    if (raw[key] !== undefined && cell === null) issues.push({ path: key, message: "must be text, a number or true/false" });
    if (cell === null || cell === "") continue;
    if (key === "email" || key === "first_name" || key === "last_name") {
      const text = String(cell);
      if (key === "email") {
        const parsed = contactEmail.safeParse(text);
        if (parsed.success) values.email = parsed.data;
        else issues.push({ path: "email", message: "must be an email address" });
      } else if (text.length > limits.name || text.includes("\u0000")) issues.push({ path: key, message: `must be at most ${limits.name} characters` });
      else values[key] = text;
      continue;
    }
    const property = types.get(key);
    if (!property) continue;
    const checked = typeof cell === "string" ? convertCell(property.type, cell) : checkPropertyValue(property.type, cell);
    if (!checked.ok) issues.push({ path: key, message: checked.message });
    else if (typeof checked.value === "string" && (checked.value.length > limits.metadataValue || checked.value.includes("\u0000")))
      issues.push({ path: key, message: `must be at most ${limits.metadataValue} characters` });
    else values.metadata[key] = checked.value;
  }
  if (!values.email && !issues.some((i) => i.path === "email")) issues.push({ path: "email", message: "is required" });
  return { values, issues };
}

export type SubmitResult = { kind: "not_found" } | { kind: "invalid"; issues: Issue[] } | { kind: "accepted"; form: Form };

/**
 * A public submission: the honeypot filled means a bot, answered as a person would be and nothing
 * written. Otherwise one statement (recordSubmission): the contact (created unsubscribed when new,
 * its other data left as it is until the confirmation when it exists), the submission and its
 * events, and with double opt-in the confirmation it is owed (not to a suppressed address, nor more
 * than CONFIRMATIONS_PER_ADDRESS_PER_HOUR an hour), which the worker makes an email
 * (form-confirmations.ts): nothing is rendered while the visitor waits. Without double opt-in, the
 * subscription at once, in the same transaction.
 */
export async function submitForm(formId: string, raw: Record<string, unknown>, ip: string | null): Promise<SubmitResult> {
  const form = await formToSubmit(formId);
  if (!form) return { kind: "not_found" };
  const honeypot = raw[HONEYPOT_FIELD];
  if (typeof honeypot === "string" ? honeypot.trim() !== "" : honeypot !== undefined && honeypot !== null && honeypot !== false)
    return { kind: "accepted", form };
  const { values, issues } = readValues(form, raw, form.properties);
  if (issues.length > 0) return { kind: "invalid", issues };

  const submissionId = randomUUID();
  try {
    if (form.double_opt_in) {
      // One statement, atomic on its own: no transaction to open, on plain pg (as findPublicForm).
      await recordSubmission(pool, form, submissionId, values, ip);
    } else {
      await db.$transaction(async (tx) => {
        const contactId = await recordSubmission(tx, form, submissionId, values, ip);
        await subscribeFromForm(tx, { form, contactId, submissionId, values, ip });
      });
    }
  } catch (error) {
    if (!formGone(error)) throw error;
    forgetPublicForm(formId);
    return { kind: "not_found" };
  }
  return { kind: "accepted", form };
}

// `c` is the contact; `created` whether this statement made it. Its events are recorded through
// lib/events in the same statement (consentEventsCtes): `contact.created` with the record as made
// (the webhooks' data), then `form.submitted`, the event automations start from. The confirmation
// is owed ($11: double opt-in) unless the address is suppressed (or suppressed again here) or had
// $12 submissions in the last hour before this one (the statement's snapshot).
const RECORD_SUBMISSION = `
  WITH c AS (
    INSERT INTO contacts AS c (organization_id, email, first_name, last_name, metadata, subscribed)
    VALUES ($1::uuid, $2, $3, $4, $5::jsonb, false)
    ON CONFLICT (organization_id, email) DO UPDATE SET email = EXCLUDED.email
    RETURNING c.*, (xmax = 0) AS created
  ), submission AS (
    INSERT INTO form_submissions (id, organization_id, form_id, contact_id, values, ip)
    SELECT $6::uuid, $1::uuid, $7::uuid, c.id, $8::jsonb, $9 FROM c
  ), resuppressed AS (
    -- An erased address that comes back is suppressed again, and gets no confirmation.
    ${resuppressErasedSql("SELECT email FROM c WHERE created")}
    RETURNING 1
  ), confirmation AS (
    INSERT INTO form_confirmations (submission_id, organization_id)
    SELECT $6::uuid, $1::uuid FROM c
    WHERE $11::boolean
      AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = c.organization_id AND s.email = c.email)
      AND NOT EXISTS (SELECT 1 FROM resuppressed)
      AND (SELECT count(*) FROM form_submissions f WHERE f.contact_id = c.id AND f.created_at > now() - interval '1 hour') < $12::int
  ), ${consentEventsCtes(
    "recorded",
    `SELECT c.organization_id, c.id AS contact_id, 'contact.created' AS name, '{}'::jsonb AS properties, 'forms' AS source,
            (${CONTACT_JSON_SQL})::jsonb AS payload
     FROM c WHERE c.created
     UNION ALL
     SELECT c.organization_id, c.id, 'form.submitted', jsonb_build_object('form_id', $7::text, 'form_name', $10::text), 'forms', NULL::jsonb FROM c`,
  )}
  SELECT c.id FROM c`;

/**
 * One statement, atomic on its own: the submitted address's contact (ON CONFLICT locks an existing
 * one, so two submissions of one address serialize), suppressed again if it was erased, the
 * submission, its events and the confirmation owed. Answers the contact's id.
 */
async function recordSubmission(
  client: Prisma.TransactionClient | Pool,
  form: Form,
  submissionId: string,
  values: SubmittedValues,
  ip: string | null,
): Promise<string> {
  const params = [
    form.organization_id,
    values.email,
    values.first_name ?? null,
    values.last_name ?? null,
    JSON.stringify(values.metadata),
    submissionId,
    form.id,
    JSON.stringify(values),
    ip,
    form.name,
    form.double_opt_in,
    CONFIRMATIONS_PER_ADDRESS_PER_HOUR,
  ];
  const [row] =
    "$queryRawUnsafe" in client
      ? await client.$queryRawUnsafe<{ id: string }[]>(RECORD_SUBMISSION, ...params)
      : (await client.query<{ id: string }>(RECORD_SUBMISSION, params)).rows;
  return row.id;
}

export type ConfirmResult =
  { kind: "not_found" } | { kind: "expired"; form: Form } | { kind: "confirmed"; form: Form; address: string; organizationName: string };

/** What the confirmation page shows for a token, without changing anything (mail scanners open links). */
export async function findConfirmation(token: string) {
  const id = readConfirmationToken(token);
  if (!id) return null;
  return db.formSubmission.findUnique({
    where: { id },
    include: { form: { include: { organization: { select: { name: true } } } }, contact: { select: { email: true, subscribed: true } } },
  });
}

const expired = (createdAt: Date, now = new Date()) => now.getTime() - createdAt.getTime() > CONFIRMATION_DAYS * 24 * 3600 * 1000;
export const confirmationExpired = (submission: { created_at: Date; confirmed_at: Date | null }) => !submission.confirmed_at && expired(submission.created_at);

/**
 * The confirmation's POST: subscribes the contact with the submitted data, its topics and segment,
 * a consent record (form, time, the confirming address) and `contact.subscribed`. Once only: a
 * second confirmation changes nothing.
 */
export async function confirmSubmission(token: string, ip: string | null): Promise<ConfirmResult> {
  const id = readConfirmationToken(token);
  if (!id) return { kind: "not_found" };
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM form_submissions WHERE id = ${id}::uuid FOR UPDATE`;
    if (!locked) return { kind: "not_found" } as const;
    const submission = await tx.formSubmission.findUniqueOrThrow({
      where: { id },
      include: { form: { include: { organization: { select: { name: true } } } }, contact: { select: { email: true } } },
    });
    const { form } = submission;
    const done = { kind: "confirmed", form, address: submission.contact.email, organizationName: form.organization.name } as const;
    if (submission.confirmed_at) return done;
    if (expired(submission.created_at)) return { kind: "expired", form } as const;
    await subscribeFromForm(tx, { form, contactId: submission.contact_id, submissionId: id, values: submission.values as SubmittedValues, ip });
    return done;
  });
}
