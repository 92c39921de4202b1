import { detectMimeType } from "nodemailer/lib/mime-funcs/mime-types";
import { Prisma } from "@/lib/db";
import type { AttachmentMeta } from "@/lib/domain/attachment-meta";
import type { AttachmentUpload } from "./attachment-upload";

/**
 * Bytes of one row of `email_attachments`: 1 024 lines of base64 (57 bytes each), so that the worker
 * has PostgreSQL encode each part into whole lines of the message (lib/sending/attachment-parts.ts).
 * Every value on the way stays under V8's 128 KB large-object size (a part travels through Prisma as
 * 78 KB of base64), so what a request leaves behind is young garbage the scavenger takes back at
 * once: in parts of 256 KB the server's RSS rose by some 50 MB for 10 MB of attachments.
 */
const PART_BYTES = 57 * 1024;
const PARTS_PER_INSERT = 4;

/** An attachment on its way into an email: what the caller said of it, and its spooled bytes. */
export type AttachmentFile = { filename: string; content_type?: string; content_id?: string; upload: AttachmentUpload };

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
    let pending: Prisma.Sql[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      await tx.$executeRaw`INSERT INTO email_attachments (email_id, organization_id, attachment, part, content) VALUES ${Prisma.join(pending)}`;
      pending = [];
    };
    for await (const piece of file.upload.read(PART_BYTES)) {
      pending.push(Prisma.sql`(${emailId}::uuid, ${organizationId}::uuid, ${index}, ${part++}, ${piece})`);
      if (pending.length === PARTS_PER_INSERT) await flush();
    }
    await flush();
  }
}
