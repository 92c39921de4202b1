import { detectMimeType } from "nodemailer/lib/mime-funcs/mime-types";
import type { Prisma } from "@/lib/db";
import type { AttachmentUpload } from "./attachment-upload";

/**
 * Bytes of one row of `email_attachments`. Small enough that a row, read or written, costs a few
 * hundred KB of memory (its hex text on the wire is twice that); large enough that 10 MB are 40 rows.
 */
const PART_BYTES = 256 * 1024;

/** An attachment on its way into an email: what the caller said of it, and its spooled bytes. */
export type AttachmentFile = { filename: string; content_type?: string; content_id?: string; upload: AttachmentUpload };

/** What the Email record says of an attachment (`attachments`); the engine builds its MIME part from it. */
export type AttachmentMeta = { filename: string; content_type: string; size: number; content_id: string | null };

export const attachmentMeta = (file: AttachmentFile): AttachmentMeta => ({
  filename: file.filename,
  content_type: (file.content_type ?? detectMimeType(file.filename)).toLowerCase(),
  size: file.upload.size,
  content_id: file.content_id ?? null,
});

/**
 * Writes the email's attachments into `email_attachments`, a part at a time, from their spool
 * files: the request never holds a whole file. In the transaction that creates the email, so an
 * email is never seen without its attachments.
 */
export async function storeAttachments(tx: Prisma.TransactionClient, organizationId: string, emailId: string, files: AttachmentFile[]): Promise<void> {
  for (const [index, file] of files.entries()) {
    let part = 0;
    for await (const piece of file.upload.read(PART_BYTES)) {
      await tx.$executeRaw`
        INSERT INTO email_attachments (email_id, organization_id, attachment, part, content)
        VALUES (${emailId}::uuid, ${organizationId}::uuid, ${index}, ${part++}, ${piece})`;
    }
  }
}
