import type { Prisma } from "@/lib/db";

/** What an erasure replaces: the address (as written and URL-encoded), its hash, and the person's names. */
export type ErasurePatterns = {
  address: string;
  hash: string;
  /** The address, and its URL-encoded form (a link's `?email=`), as a regular expression for 'gi'. */
  addressPattern: string;
  /** The names as whole words, for plain text. */
  namePattern: string;
  /** The same for JSON text: not inside a key (a person named Data must not rename `"data":`). */
  jsonNamePattern: string;
};

// The person's device and network address in opens, clicks and their events: what a tracker keeps about a reader.
const VISITOR_KEYS = ["ip", "user_agent"];

/**
 * The contact's emails — by contact, or naming the address as a recipient, sender or Reply-To —
 * keep their rows (reports count them) with the address as its hash: subject and content go, and
 * names and the address leave headers, metadata, errors and diagnostics. Opens and clicks stay
 * counted without the reader's IP and device. One not sent yet is cancelled rather than sent to a
 * hash. Their delivery reports, comments, threads and drafts follow (their events: contact-erasure.ts). Answers the emails' ids.
 */
export async function eraseEmails(tx: Prisma.TransactionClient, organizationId: string, contactId: string, p: ErasurePatterns): Promise<string[]> {
  const swap = (column: string) => `CASE WHEN lower(${column}) = $3 THEN $4 ELSE ${column} END`;
  const swapAll = (column: string) => `ARRAY(SELECT CASE WHEN lower(a) = $3 THEN $4 ELSE a END FROM unnest(${column}) a)`;
  const scrub = (column: string) => `regexp_replace(regexp_replace(${column}, $5, $4, 'gi'), $6, '[erased]', 'gi')`;
  const scrubJson = (column: string) => `regexp_replace(regexp_replace(${column}::text, $5, $4, 'gi'), $7, '[erased]', 'gi')::jsonb`;
  const withoutVisitor = (column: string) =>
    `(SELECT coalesce(jsonb_agg(x ${VISITOR_KEYS.map((k) => `- '${k}'`).join(" ")} ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements(${column}) WITH ORDINALITY AS t(x, i))`;
  const rows = await tx.$queryRawUnsafe<{ id: string; thread_id: string | null }[]>(
    `WITH mine AS (
       SELECT id FROM emails WHERE organization_id = $1::uuid AND contact_id = $2::uuid
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND lower(to_email) = $3
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND lower(from_email) = $3
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND ($3 = ANY(cc) OR $3 = ANY(bcc) OR $3 = ANY(to_addresses))
       UNION SELECT id FROM emails WHERE organization_id = $1::uuid AND position($3 in lower(reply_to)) > 0
     )
     UPDATE emails e SET
       to_email = ${swap("e.to_email")}, from_email = ${swap("e.from_email")}, from_name = CASE WHEN lower(e.from_email) = $3 THEN NULL ELSE e.from_name END,
       to_addresses = ${swapAll("e.to_addresses")}, cc = ${swapAll("e.cc")}, bcc = ${swapAll("e.bcc")}, reply_to = ${scrub("e.reply_to")},
       subject = '[erased]', html_content = NULL, text_content = NULL, body_links = NULL, contact_id = NULL,
       headers = ${scrubJson("e.headers")}, metadata = ${scrubJson("e.metadata")}, custom_headers = ${scrubJson("e.custom_headers")},
       bounce_diagnostic = ${scrub("e.bounce_diagnostic")},
       opens = ${withoutVisitor("e.opens")}, clicked_links = ${scrubJson(withoutVisitor("e.clicked_links"))},
       status = CASE WHEN e.status IN ('queued', 'scheduled') THEN 'cancelled'::"EmailStatus" ELSE e.status END,
       last_error = CASE WHEN e.status IN ('queued', 'scheduled') THEN 'The contact was erased' ELSE ${scrub("e.last_error")} END
     FROM mine WHERE e.id = mine.id
     RETURNING e.id, e.thread_id`,
    organizationId,
    contactId,
    p.address,
    p.hash,
    p.addressPattern,
    p.namePattern,
    p.jsonNamePattern,
  );
  const ids = rows.map((row) => row.id);
  const threadIds = [...new Set(rows.map((row) => row.thread_id).filter((t): t is string => t !== null))];
  if (ids.length > 0) {
    await tx.$executeRaw`DELETE FROM email_attachments WHERE organization_id = ${organizationId}::uuid AND email_id = ANY(${ids}::uuid[])`;
    await tx.$executeRaw`UPDATE feedback_reports SET raw = NULL WHERE organization_id = ${organizationId}::uuid AND email_id = ANY(${ids}::uuid[])`;
    // A member's notes on them may name the person.
    await tx.$executeRaw`
      UPDATE email_comments SET content = regexp_replace(regexp_replace(content, ${p.addressPattern}, ${p.hash}, 'gi'), ${p.namePattern}, '[erased]', 'gi')
      WHERE organization_id = ${organizationId}::uuid AND email_id = ANY(${ids}::uuid[])`;
  }
  // Its threads, those of its emails and any still naming it (a thread can outlive its emails).
  const threads = await tx.$queryRaw<{ id: string }[]>`
    UPDATE threads SET subject = '[erased]', contact_id = NULL
    WHERE organization_id = ${organizationId}::uuid AND (id = ANY(${threadIds}::uuid[]) OR contact_id = ${contactId}::uuid)
    RETURNING id`;
  if (threads.length > 0) {
    await tx.$executeRaw`DELETE FROM thread_drafts WHERE organization_id = ${organizationId}::uuid AND thread_id = ANY(${threads.map((t) => t.id)}::uuid[])`;
  }
  return ids;
}
