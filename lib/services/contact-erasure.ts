import { createHash } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";
import { recordAudit } from "./audit-log";
import { eraseEmails, type ErasurePatterns } from "./contact-erasure-emails";

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

/** LIKE's wildcards in `text` escaped, so `%text%` finds it literally. */
const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

function patterns(organizationId: string, address: string, names: (string | null)[]): ErasurePatterns {
  const forms = [...new Set([address, encodeURIComponent(address)])].map(literalPattern);
  // Its names where they may be written into kept text (recorded headers, stored answers): whole words, any case.
  const words = names.filter((n): n is string => !!n && n.trim().length > 1).map((n) => literalPattern(n.trim()));
  const namePattern = words.length ? `\\m(${words.join("|")})\\M` : "(?!)";
  return {
    address,
    hash: erasedAddress(organizationId, address),
    addressPattern: forms.join("|"),
    namePattern,
    // In JSON text a key is a string followed by a colon; a value never is.
    jsonNamePattern: words.length ? `${namePattern}(?![^"]*"\\s*:)` : "(?!)",
  };
}

/**
 * The contact's events and those of its emails stay (reports and filters count them) without the
 * person: no longer the contact's; an email's event keeps its properties (a report's links) with the
 * address as its hash, no names and no reader's IP or device, any other its properties emptied (a
 * custom event's are whatever the tenant sent); a recorded contact record (the webhooks' `data`,
 * lib/events) keeps the hash alone, without names or consent records (their addresses).
 */
async function eraseEvents(tx: Prisma.TransactionClient, organizationId: string, contactId: string, emailIds: string[], p: ErasurePatterns) {
  const scrub = (json: string) => `regexp_replace(regexp_replace(${json}::text, $4, $5, 'gi'), $6, '[erased]', 'gi')::jsonb`;
  await tx.$executeRawUnsafe(
    `UPDATE events SET contact_id = NULL,
       properties = CASE WHEN email_id = ANY($3::uuid[]) AND name LIKE 'email.%' THEN ${scrub("properties")} - 'ip' - 'user_agent' ELSE '{}'::jsonb END,
       payload = CASE WHEN jsonb_typeof(payload) = 'object'
         THEN jsonb_set(jsonb_set(jsonb_set(${scrub("payload")}, '{first_name}', 'null', false), '{last_name}', 'null', false), '{consent}', '[]', false)
         ELSE ${scrub("payload")} END
     WHERE organization_id = $1::uuid AND (contact_id = $2::uuid OR email_id = ANY($3::uuid[]))`,
    organizationId,
    contactId,
    emailIds,
    p.addressPattern,
    p.hash,
    p.jsonNamePattern,
  );
}

/**
 * Erases a contact (DELETE /v1/contacts/{id}?erase=true, decisions.md "Consent"): the contact and
 * what hangs off it (topics, segments, form submissions, its consent records) are deleted, and
 * wherever a row must stay for the reports' counts its address becomes its hash and its names and
 * the reader's IP and device go: its emails and everything of theirs (contact-erasure-emails.ts),
 * its events (properties emptied, no longer the contact's), webhook deliveries (and what their receivers
 * answered) and stored idempotent answers that carried it, audit entries naming the address, its soft-bounce streak. A suppression
 * of the address keeps only the hash, and a contact created later with the address is suppressed
 * again (erased-suppressions.ts). The erasure itself is audited, by id only.
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
      const p = patterns(organizationId, address, [contact.first_name, contact.last_name]);
      const emailIds = await eraseEmails(tx, organizationId, id, p);
      await eraseEvents(tx, organizationId, id, emailIds, p);
      // The delivery log keeps what receivers answered, which may echo what they were sent: first the
      // answers to deliveries that carried the contact (found before their payloads change), and any naming the address.
      await tx.$executeRaw`
        UPDATE webhook_delivery_attempts a
        SET response_body = regexp_replace(regexp_replace(a.response_body, ${p.addressPattern}, ${p.hash}, 'gi'), ${p.namePattern}, '[erased]', 'gi'),
            error = regexp_replace(regexp_replace(a.error, ${p.addressPattern}, ${p.hash}, 'gi'), ${p.namePattern}, '[erased]', 'gi')
        WHERE a.organization_id = ${organizationId}::uuid
          AND (a.response_body ILIKE ${likeContaining(address)} OR a.error ILIKE ${likeContaining(address)}
            OR a.delivery_id IN (
              SELECT d.id FROM webhook_deliveries d
              WHERE d.organization_id = ${organizationId}::uuid
                AND (d.payload::text ILIKE ${likeContaining(address)} OR d.payload->'data'->>'contact_id' = ${id} OR d.payload->'data'->>'id' = ${id}
                  OR d.payload->'data'->>'email_id' = ANY(${emailIds}::text[]))))`;
      // Payloads that carried the contact, or one of its emails (their subjects may name the person).
      await tx.$executeRaw`
        UPDATE webhook_deliveries SET payload = (
          SELECT CASE WHEN s.p->'data' ? 'subject' THEN jsonb_set(s.p, '{data,subject}', '"[erased]"') ELSE s.p END
            #- '{data,ip}' #- '{data,user_agent}'
          FROM (SELECT jsonb_set(jsonb_set(jsonb_set(regexp_replace(regexp_replace(payload::text, ${p.addressPattern}, ${p.hash}, 'gi'),
                  ${p.jsonNamePattern}, '[erased]', 'gi')::jsonb, '{data,first_name}', 'null', false), '{data,last_name}', 'null', false),
                  '{data,consent}', '[]', false) AS p) s)
        WHERE organization_id = ${organizationId}::uuid
          AND (payload::text ILIKE ${likeContaining(address)} OR payload->'data'->>'contact_id' = ${id} OR payload->'data'->>'id' = ${id}
            OR payload->'data'->>'email_id' = ANY(${emailIds}::text[]))`;
      await tx.$executeRaw`
        UPDATE idempotency_keys SET response = regexp_replace(regexp_replace(response::text, ${p.addressPattern}, ${p.hash}, 'gi'), ${p.jsonNamePattern}, '[erased]', 'gi')::jsonb
        WHERE organization_id = ${organizationId}::uuid AND response::text ILIKE ${likeContaining(address)}`;
      // Suppression entries of the audit log name the address they added or removed.
      await tx.$executeRaw`
        UPDATE audit_logs SET details = regexp_replace(details::text, ${p.addressPattern}, ${p.hash}, 'gi')::jsonb
        WHERE organization_id = ${organizationId}::uuid AND details::text ILIKE ${likeContaining(address)}`;
      await tx.$executeRaw`DELETE FROM soft_bounce_streaks WHERE organization_id = ${organizationId}::uuid AND email = ${address}`;
      // The suppression stays (the address must not be mailed again) as its hash alone.
      await tx.$executeRaw`
        INSERT INTO suppressions (organization_id, email, reason, created_at, erased)
        SELECT organization_id, ${p.hash}, reason, created_at, true FROM suppressions WHERE organization_id = ${organizationId}::uuid AND email = ${address}
        ON CONFLICT (organization_id, email) DO NOTHING`;
      await tx.$executeRaw`DELETE FROM suppressions WHERE organization_id = ${organizationId}::uuid AND email = ${address}`;
      await tx.contact.deleteMany({ where: { id, organization_id: organizationId } });
      await recordAudit(ctx, { action: "contact.erased", target: { type: "contact", id } }, tx);
    },
    { timeout: 120_000 },
  );
  return { success: true };
}
