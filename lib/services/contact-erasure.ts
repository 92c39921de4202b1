import { createHash } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";

/**
 * What an erased address becomes wherever a row must stay (suppressions, emails, reports):
 * `sha256:` and the hex SHA-256 of `<organization id>:<address>`. The organization in it keeps one
 * tenant's hashes from matching another's; the same hash in SQL is `erasedAddressSql`.
 */
export function erasedAddress(organizationId: string, email: string): string {
  return `sha256:${createHash("sha256").update(`${organizationId.toLowerCase()}:${email.trim().toLowerCase()}`).digest("hex")}`;
}

/** A regular expression matching `text` literally, case-insensitively with the 'gi' flags. */
const literalPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Erases a contact (DELETE /v1/contacts/{id}?erase=true, decisions.md "Consent"): the contact and
 * what hangs off it (topics, segments, form submissions) are deleted, and wherever a row must stay
 * for the reports' counts its address becomes its hash and its names go: its emails (recipients,
 * subject and content, errors, headers, attachments), their events and delivery reports, its events
 * (properties emptied, no longer the contact's), its threads and their drafts, webhook deliveries and
 * stored idempotent answers that carried it. A suppression of the address keeps only the hash, and a
 * contact created later with the address is suppressed again (erased-suppressions.ts).
 */
export async function eraseContact(ctx: OrgContext, id: string) {
  const organizationId = ctx.organizationId;
  await db.$transaction(
    async (tx) => {
      const contact = await tx.contact.findFirst({
        where: { id, organization_id: organizationId },
        select: { email: true, first_name: true, last_name: true },
      });
      if (!contact) throw notFound("Contact");
      const address = contact.email.trim().toLowerCase();
      const hash = erasedAddress(organizationId, address);
      const pattern = literalPattern(address);
      // Its names where they may be written into kept text (recorded headers, stored answers): whole words, any case.
      const names = [contact.first_name, contact.last_name].filter((n): n is string => !!n && n.trim().length > 1).map((n) => literalPattern(n.trim()));
      const namePattern = names.length ? `\\m(${names.join("|")})\\M` : "(?!)";
      await eraseEmails(tx, organizationId, id, address, hash, pattern, namePattern);
      await tx.$executeRaw`
        UPDATE events SET contact_id = NULL, properties = '{}'::jsonb
        WHERE organization_id = ${organizationId}::uuid AND contact_id = ${id}::uuid`;
      await tx.$executeRaw`
        UPDATE webhook_deliveries SET payload = jsonb_set(jsonb_set(regexp_replace(payload::text, ${pattern}, ${hash}, 'gi')::jsonb,
          '{data,first_name}', 'null', false), '{data,last_name}', 'null', false)
        WHERE organization_id = ${organizationId}::uuid AND payload::text ILIKE ${`%${address.replace(/[\\%_]/g, "\\$&")}%`}`;
      await tx.$executeRaw`
        UPDATE idempotency_keys SET response = regexp_replace(regexp_replace(response::text, ${pattern}, ${hash}, 'gi'), ${namePattern}, '[erased]', 'gi')::jsonb
        WHERE organization_id = ${organizationId}::uuid AND response::text ILIKE ${`%${address.replace(/[\\%_]/g, "\\$&")}%`}`;
      // The suppression stays (the address must not be mailed again) as its hash alone.
      await tx.$executeRaw`
        INSERT INTO suppressions (organization_id, email, reason, created_at, erased)
        SELECT organization_id, ${hash}, reason, created_at, true FROM suppressions WHERE organization_id = ${organizationId}::uuid AND email = ${address}
        ON CONFLICT (organization_id, email) DO NOTHING`;
      await tx.$executeRaw`DELETE FROM suppressions WHERE organization_id = ${organizationId}::uuid AND email = ${address}`;
      await tx.contact.deleteMany({ where: { id, organization_id: organizationId } });
    },
    { timeout: 120_000 },
  );
  return { success: true };
}

/** The contact's emails (by contact or by address, either way), their events, reports, threads and drafts. */
async function eraseEmails(
  tx: Prisma.TransactionClient,
  organizationId: string,
  contactId: string,
  address: string,
  hash: string,
  pattern: string,
  namePattern: string,
) {
  const swap = (column: string) => `CASE WHEN lower(${column}) = $3 THEN $4 ELSE ${column} END`;
  const swapAll = (column: string) => `ARRAY(SELECT CASE WHEN lower(a) = $3 THEN $4 ELSE a END FROM unnest(${column}) a)`;
  const scrub = (column: string) => `regexp_replace(regexp_replace(${column}, $5, $4, 'gi'), $6, '[erased]', 'gi')`;
  const ids = await tx.$queryRawUnsafe<{ id: string; thread_id: string | null }[]>(
    `WITH mine AS (
       SELECT id FROM emails WHERE organization_id = $1::uuid AND contact_id = $2::uuid
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND lower(to_email) = $3
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND lower(from_email) = $3
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND ($3 = ANY(cc) OR $3 = ANY(bcc) OR $3 = ANY(to_addresses))
     )
     UPDATE emails e SET
       to_email = ${swap("e.to_email")}, from_email = ${swap("e.from_email")}, from_name = CASE WHEN lower(e.from_email) = $3 THEN NULL ELSE e.from_name END,
       to_addresses = ${swapAll("e.to_addresses")}, cc = ${swapAll("e.cc")}, bcc = ${swapAll("e.bcc")}, reply_to = ${scrub("e.reply_to")},
       subject = '[erased]', html_content = NULL, text_content = NULL, contact_id = NULL,
       headers = ${scrub("e.headers::text")}::jsonb, metadata = ${scrub("e.metadata::text")}::jsonb,
       last_error = ${scrub("e.last_error")}, bounce_diagnostic = ${scrub("e.bounce_diagnostic")}
     FROM mine WHERE e.id = mine.id
     RETURNING e.id, e.thread_id`,
    organizationId,
    contactId,
    address,
    hash,
    pattern,
    namePattern,
  );
  if (ids.length === 0) return;
  const emailIds = ids.map((row) => row.id);
  const threadIds = [...new Set(ids.map((row) => row.thread_id).filter((t): t is string => t !== null))];
  await tx.$executeRaw`DELETE FROM email_attachments WHERE organization_id = ${organizationId}::uuid AND email_id = ANY(${emailIds}::uuid[])`;
  await tx.$executeRaw`
    UPDATE email_events SET data = regexp_replace(data::text, ${pattern}, ${hash}, 'gi')::jsonb
    WHERE organization_id = ${organizationId}::uuid AND email_id = ANY(${emailIds}::uuid[])`;
  await tx.$executeRaw`UPDATE feedback_reports SET raw = NULL WHERE email_id = ANY(${emailIds}::uuid[])`;
  if (threadIds.length === 0) return;
  await tx.$executeRaw`UPDATE threads SET subject = '[erased]', contact_id = NULL WHERE organization_id = ${organizationId}::uuid AND id = ANY(${threadIds}::uuid[])`;
  await tx.$executeRaw`DELETE FROM thread_drafts WHERE organization_id = ${organizationId}::uuid AND thread_id = ANY(${threadIds}::uuid[])`;
}
