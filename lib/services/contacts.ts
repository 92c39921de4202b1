import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { db, type DbClient, Prisma } from "@/lib/db";
import type { Contact } from "@/lib/generated/prisma/client";
import type { BulkContactsInput, CheckEmailsInput, ConsentRecord, CreateContactInput, UpdateContactInput } from "@/lib/schemas/contacts";
import { normalizeEmail } from "@/lib/schemas/common";
import { checkMetadata, typedMetadata } from "@/lib/audience/metadata-types";
import { propertyTypes } from "@/lib/audience/scope";
import { recordContactChange, recordContactEvents } from "./contact-events";
import { callerSource, consentRecord, withConsent } from "./consent";
import { resuppressErasedSql } from "./erased-suppressions";
import { keepStatisticsCurrent } from "@/lib/db/statistics";

/**
 * A contact row, whether read by Prisma or by plain SQL (where a NULL tags array can appear), with
 * its address's suppression when the query joined it.
 */
export type ContactRow = Omit<Contact, "tags"> & { tags: string[] | null; suppression_reason?: string | null; suppressed_at?: Date | null };

type Suppression = { reason: string; created_at: Date } | null;

export const serializeContact = (row: ContactRow, suppression?: Suppression) => ({
  id: row.id,
  organization_id: row.organization_id,
  email: row.email,
  first_name: row.first_name,
  last_name: row.last_name,
  metadata: row.metadata ?? {},
  subscribed: row.subscribed,
  unsubscribed_at: row.unsubscribed_at,
  tags: row.tags ?? [],
  timezone: row.timezone ?? null,
  consent: (row.consent ?? []) as ConsentRecord[],
  created_at: row.created_at,
  updated_at: row.updated_at,
  // Mail to a suppressed address is never sent, whatever `subscribed` says: shown so nobody wonders why.
  suppression: suppression
    ? { reason: suppression.reason, suppressed_at: suppression.created_at }
    : row.suppression_reason && row.suppressed_at
      ? { reason: row.suppression_reason, suppressed_at: row.suppressed_at }
      : null,
});

/** The suppression of a contact's address, if any. */
const suppressionOf = (client: DbClient, organizationId: string, email: string): Promise<Suppression> =>
  client.suppression.findUnique({
    where: { organization_id_email: { organization_id: organizationId, email: email.trim().toLowerCase() } },
    select: { reason: true, created_at: true },
  });

const duplicateEmail = () => new AppError("CONFLICT", "A contact with this email already exists", [{ path: "email", message: "is already a contact" }]);

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

export async function createContact(ctx: OrgContext, input: CreateContactInput) {
  const subscribed = input.subscribed ?? true;
  const metadata = await checkMetadata(db, ctx.organizationId, input.metadata);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.contact.create({
        data: {
          organization_id: ctx.organizationId,
          email: input.email,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          subscribed,
          unsubscribed_at: subscribed ? null : new Date(),
          metadata: metadata ?? {},
          tags: input.tags ?? [],
          timezone: input.timezone ?? null,
          consent: subscribed ? [consentRecord(callerSource(ctx))] : [],
        },
      });
      await tx.$executeRawUnsafe(resuppressErasedSql("SELECT $2::text AS email"), ctx.organizationId, row.email);
      const contact = serializeContact(row, await suppressionOf(tx, ctx.organizationId, row.email));
      await recordContactChange(tx, ctx, { name: "contact.created", contact });
      return contact;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
}

export async function getContact(ctx: OrgContext, id: string) {
  const row = await db.contact.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Contact");
  return serializeContact(row, await suppressionOf(db, ctx.organizationId, row.email));
}

export async function updateContact(ctx: OrgContext, id: string, input: UpdateContactInput) {
  const current = await db.contact.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!current) throw notFound("Contact");
  const data: Prisma.ContactUpdateInput = {
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    metadata: await checkMetadata(db, ctx.organizationId, input.metadata),
    tags: input.tags,
    timezone: input.timezone,
  };
  if (input.subscribed !== undefined) {
    data.subscribed = input.subscribed;
    // The first unsubscription is the one that counts; repeating it keeps the original time.
    data.unsubscribed_at = input.subscribed ? null : (current.unsubscribed_at ?? new Date());
    // Subscribing again is a new consent, recorded as the first one was.
    if (input.subscribed && !current.subscribed) data.consent = withConsent(current.consent, consentRecord(callerSource(ctx)));
  }
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.contact.update({ where: { id, organization_id: ctx.organizationId }, data });
      const contact = serializeContact(row, await suppressionOf(tx, ctx.organizationId, row.email));
      await recordContactChange(tx, ctx, { name: "contact.updated", contact, before: current, after: row });
      return contact;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
}

export async function deleteContact(ctx: OrgContext, id: string) {
  const { count } = await db.contact.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Contact");
  return { success: true };
}

/**
 * Creates the contacts whose email is new, in one statement. Emails that exist are left unchanged,
 * and an email repeated in the batch is created once, from its first occurrence.
 */
export async function bulkCreateContacts(ctx: OrgContext, input: BulkContactsInput) {
  // The whole batch is checked before anything is written, as its schema was.
  const types = await propertyTypes(db, ctx.organizationId);
  const batch = JSON.stringify(
    input.contacts.map((c, i) => ({
      email: c.email,
      first_name: c.first_name ?? null,
      last_name: c.last_name ?? null,
      subscribed: c.subscribed ?? true,
      metadata: typedMetadata(c.metadata ?? {}, types, `contacts.${i}.metadata`),
      tags: c.tags ?? [],
      timezone: c.timezone ?? null,
    })),
  );
  const consent = JSON.stringify([consentRecord(callerSource(ctx))]);
  const result = await db.$transaction(async (tx) => {
    const created = await tx.$queryRaw<{ id: string }[]>`
    WITH input AS (
      SELECT DISTINCT ON (x.email) x.*
      FROM ROWS FROM (jsonb_to_recordset(${batch}::jsonb)
        AS (email text, first_name text, last_name text, subscribed boolean, metadata jsonb, tags text[], timezone text))
        WITH ORDINALITY AS x(email, first_name, last_name, subscribed, metadata, tags, timezone, position)
      ORDER BY x.email, x.position
    ), created AS (
      INSERT INTO contacts (organization_id, email, first_name, last_name, subscribed, unsubscribed_at, metadata, tags, timezone, consent)
      SELECT ${ctx.organizationId}::uuid, email, first_name, last_name, subscribed,
             CASE WHEN subscribed THEN NULL ELSE now() END, metadata, tags, timezone,
             CASE WHEN subscribed THEN ${consent}::jsonb ELSE '[]'::jsonb END
      FROM input
      ON CONFLICT (organization_id, email) DO NOTHING
      RETURNING id
    )
    SELECT id FROM created`;
    if (created.length > 0)
      await tx.$executeRawUnsafe(
        resuppressErasedSql("SELECT email FROM contacts WHERE id = ANY($2::uuid[])"),
        ctx.organizationId,
        created.map((row) => row.id),
      );
    await recordContactEvents(tx, {
      organizationId: ctx.organizationId,
      name: "contact.created",
      source: "contacts",
      contactIds: created.map((row) => row.id),
    });
    return { imported: created.length, total: input.contacts.length };
  });
  await keepStatisticsCurrent(["contacts"], result.imported);
  return result;
}

/**
 * Which of the given strings name a contact; one query whatever the number of addresses. They go
 * as one newline-separated text and the matches come back the same way: for 10 000 addresses, an
 * array parameter and a row per match cost Prisma more time than the query itself. A contact's
 * email never contains a newline, so the splitting cannot make a false match.
 */
export async function checkEmails(ctx: OrgContext, input: CheckEmailsInput) {
  const given = [...new Set(input.emails)];
  const normalized = given.map(normalizeEmail);
  const [{ matches }] = await db.$queryRaw<{ matches: string | null }[]>`
    SELECT string_agg(email, chr(10)) AS matches FROM contacts
    WHERE organization_id = ${ctx.organizationId}::uuid AND email = ANY(string_to_array(${normalized.join("\n")}, chr(10)))`;
  const found = new Set(matches ? matches.split("\n") : []);
  const existing: string[] = [];
  const missing: string[] = [];
  given.forEach((email, i) => (found.has(normalized[i]) ? existing : missing).push(email));
  return { existing, missing };
}
