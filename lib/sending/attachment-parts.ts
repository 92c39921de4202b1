import type pg from "pg";
import { createPool } from "@/lib/db/connections";

/** Which attachment of which email: what a streamed message holds in place of the bytes. */
export type AttachmentRef = { emailId: string; organizationId: string; index: number; size: number };

/** Rows read at once (57 KB each): a quarter of a megabyte in memory while an attachment streams. */
const PARTS_PER_READ = 4;

// Its own small pool, in whichever thread streams the message (the relay's runs in a thread of its own).
const globalForParts = globalThis as unknown as { attachmentPartsPool?: pg.Pool };

function partsPool(): pg.Pool {
  globalForParts.attachmentPartsPool ??= createPool("attachment parts", { max: 2, idleTimeoutMillis: 10_000, allowExitOnIdle: true, query_timeout: 60_000 });
  return globalForParts.attachmentPartsPool;
}

const SEPARATOR = Buffer.from("\r\n");

/**
 * An attachment as the base64 of its MIME part, a few parts at a time, made by PostgreSQL: each part
 * is a whole number of 76-character lines (lib/services/email-attachments.ts), which `encode`
 * writes with LF between them, turned into CRLF there too. No bytes are decoded or encoded in this
 * process, and no string exceeds V8's large-object size (young garbage, collected at once). Fewer
 * bytes than the email's record says (parts removed since: the email was cancelled) fail the
 * message rather than send a truncated file.
 */
export async function* attachmentBase64(ref: AttachmentRef): AsyncGenerator<Buffer> {
  let next = 0;
  let size = 0;
  for (;;) {
    const { rows } = await partsPool().query<{ text: string; size: number }>({
      name: "read-attachment-parts",
      text: `SELECT replace(encode(content, 'base64'), E'\\n', E'\\r\\n') AS text, length(content) AS size FROM email_attachments
             WHERE email_id = $1 AND organization_id = $2 AND attachment = $3 AND part >= $4 ORDER BY part LIMIT ${PARTS_PER_READ}`,
      values: [ref.emailId, ref.organizationId, ref.index, next],
    });
    for (const row of rows) {
      if (next > 0 || row !== rows[0]) yield SEPARATOR;
      yield Buffer.from(row.text, "latin1");
      size += row.size;
    }
    if (rows.length < PARTS_PER_READ) break;
    next += rows.length;
  }
  if (size !== ref.size) throw new Error(`Attachment ${ref.index} of email ${ref.emailId} has ${size} of its ${ref.size} bytes`);
}
