import { randomUUID } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import type { Form } from "@/lib/generated/prisma/client";
import { log, errorField } from "@/lib/log";
import { convertCell, checkPropertyValue, type MetadataValue } from "@/lib/audience/property-values";
import { signedIds } from "@/lib/sending/signed-id";
import { limits } from "@/lib/schemas/common";
import { contactEmail } from "@/lib/schemas/contacts";
import { HONEYPOT_FIELD } from "@/lib/schemas/forms";
import { consentEventsCtes } from "./consent-events";
import { CONTACT_JSON_SQL } from "./contact-json-sql";
import { resuppressErasedSql } from "./erased-suppressions";
import { subscribeFromForm } from "./form-subscribe";
import { createEmails } from "./transactional";

/** A confirmation link works this long after the submission. */
const CONFIRMATION_DAYS = 7;
/** Confirmation emails one address gets in an hour, whatever the forms and submitters: more would let anyone flood an inbox. */
export const CONFIRMATIONS_PER_ADDRESS_PER_HOUR = 3;

// The confirmation link names a submission, under a key of its own.
const confirmationTokens = signedIds("form-confirmation");
const readConfirmationToken = (token: string) => confirmationTokens.read(token);
const confirmationUrl = (submissionId: string) => `${env.appUrl}/f/confirm/${confirmationTokens.sign(submissionId)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type FormProperty = { label: string; type: "string" | "number" | "boolean" | "date" };
export type PublicForm = Form & { organization: { name: string }; properties: Map<string, FormProperty> };

/**
 * A public form as its page and endpoint read it, with its organization's name and the typed
 * properties its fields name, in one query (the endpoint's hot path); any id a visitor types is a
 * 404 unless it names a form.
 */
export async function findPublicForm(id: string): Promise<PublicForm | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.$queryRaw<(Form & { organization_name: string; properties: ({ key: string } & FormProperty)[] })[]>`
    SELECT f.*, o.name AS organization_name,
      coalesce((SELECT json_agg(json_build_object('key', p.key, 'label', p.label, 'type', p.type))
                FROM contact_properties p WHERE p.organization_id = f.organization_id AND p.key = ANY(f.fields)), '[]') AS properties
    FROM forms f JOIN organizations o ON o.id = f.organization_id
    WHERE f.id = ${id}::uuid`;
  if (!row) return null;
  const { organization_name, properties, ...form } = row;
  return { ...form, organization: { name: organization_name }, properties: new Map(properties.map(({ key, ...p }) => [key, p])) };
}

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
 * written. Otherwise, in one transaction: the contact (created unsubscribed when new, its other
 * data left as it is until the confirmation when it exists), the submission and its
 * `form.submitted` event; with double opt-in the confirmation email (not to a suppressed address,
 * nor more than CONFIRMATIONS_PER_ADDRESS_PER_HOUR an hour), else the subscription at once.
 */
export async function submitForm(formId: string, raw: Record<string, unknown>, ip: string | null): Promise<SubmitResult> {
  const form = await findPublicForm(formId);
  if (!form) return { kind: "not_found" };
  const honeypot = raw[HONEYPOT_FIELD];
  if (typeof honeypot === "string" ? honeypot.trim() !== "" : honeypot !== undefined && honeypot !== null && honeypot !== false)
    return { kind: "accepted", form };
  const { values, issues } = readValues(form, raw, form.properties);
  if (issues.length > 0) return { kind: "invalid", issues };

  await db.$transaction(async (tx) => {
    const submissionId = randomUUID();
    const contact = await recordSubmission(tx, form, submissionId, values, ip);
    if (!form.double_opt_in) {
      await subscribeFromForm(tx, { form, contactId: contact.id, submissionId, values, ip });
      return;
    }
    if (contact.suppressed || contact.recentSubmissions >= CONFIRMATIONS_PER_ADDRESS_PER_HOUR) return;
    await sendConfirmation(tx, form, values, confirmationUrl(submissionId));
  });
  return { kind: "accepted", form };
}

type Upserted = { id: string; suppressed: boolean; recentSubmissions: number };

// `c` is the contact; `created` whether this statement made it. Its events are recorded through
// lib/events in the same statement (consentEventsCtes): `contact.created` with the record as made
// (the webhooks' data), then `form.submitted`, the event automations start from.
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
  ), ${consentEventsCtes(
    "recorded",
    `SELECT c.organization_id, c.id AS contact_id, 'contact.created' AS name, '{}'::jsonb AS properties, 'forms' AS source,
            (${CONTACT_JSON_SQL})::jsonb AS payload
     FROM c WHERE c.created
     UNION ALL
     SELECT c.organization_id, c.id, 'form.submitted', jsonb_build_object('form_id', $7::text, 'form_name', $10::text), 'forms', NULL::jsonb FROM c`,
  )}
  SELECT c.id,
    EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = c.organization_id AND s.email = c.email)
      OR EXISTS (SELECT 1 FROM resuppressed) AS suppressed,
    (SELECT count(*)::int FROM form_submissions f WHERE f.contact_id = c.id AND f.created_at > now() - interval '1 hour') AS recent
  FROM c`;

/**
 * One statement: the submitted address's contact, created unsubscribed with the submitted data when
 * new (ON CONFLICT locks an existing one, so two submissions of one address serialize), suppressed
 * again if it was erased, the submission and its events, with whether the address is suppressed
 * and how many submissions it had in the last hour before this one (the statement's snapshot).
 */
async function recordSubmission(tx: Prisma.TransactionClient, form: Form, submissionId: string, values: SubmittedValues, ip: string | null): Promise<Upserted> {
  const [row] = await tx.$queryRawUnsafe<{ id: string; suppressed: boolean; recent: number }[]>(
    RECORD_SUBMISSION,
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
  );
  return { id: row.id, suppressed: row.suppressed, recentSubmissions: row.recent };
}

/** The confirmation email, queued as the organization's own transactional email from the form's sender. */
async function sendConfirmation(tx: Prisma.TransactionClient, form: PublicForm, values: SubmittedValues, link: string) {
  const { organization } = form;
  // The form acts for the organization, as no member: no key scope, no user.
  const ctx: OrgContext = { organizationId: form.organization_id, role: "owner", userId: "", userEmail: "", apiKeyId: null };
  const from = form.from_email ? (form.from_name ? `"${form.from_name.replace(/["<>\\]/g, "")}" <${form.from_email}>` : form.from_email) : undefined;
  try {
    await tx.$executeRaw`SAVEPOINT confirmation`;
    await createEmails(
      tx,
      ctx,
      [
        {
          input: {
            to: values.email,
            from,
            inbox_id: form.inbox_id ?? undefined,
            subject: form.confirmation_subject,
            html: form.confirmation_html,
            variables: { confirm_url: link, organization_name: organization.name, ...(values.first_name ? { first_name: values.first_name } : {}) },
            tags: ["form-confirmation"],
          },
          attachments: [],
        },
      ],
      { idempotencyKey: null, batch: false },
    );
    await tx.$executeRaw`RELEASE SAVEPOINT confirmation`;
  } catch (error) {
    // A sender unverified since the form was saved: the submission stands, and the log says why no email went.
    if (!(error instanceof AppError)) throw error;
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT confirmation`;
    log.warn({ err: errorField(error), form_id: form.id, organization_id: form.organization_id }, "form confirmation not sent");
  }
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
