import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import type { SendEmailInput } from "@/lib/schemas/send-email";
import { emailSelect } from "@/lib/services/emails";
import type { AttachmentSpool } from "./attachment-upload";
import type { AttachmentFile } from "./email-attachments";
import { withIdempotency } from "./idempotency";
import { createEmails, emailRecords, type EmailRequest } from "./transactional";

/** The spooled files of the body's attachments, beside what the body said of each. */
function attachmentFiles(input: SendEmailInput, spool: AttachmentSpool | undefined): AttachmentFile[] {
  return (input.attachments ?? []).map((attachment, index) => {
    const upload = spool?.get(index);
    if (!upload) throw new AppError("VALIDATION_ERROR", "Invalid request body", [{ path: `attachments.${index}.content`, message: "must be base64" }]);
    return { filename: attachment.filename, content_type: attachment.content_type, content_id: attachment.content_id, upload };
  });
}

/**
 * What the idempotency key's hash covers: the body, with each attachment's content (read into a
 * spool, so "" in the body) named by its digest; another file under the same key is a conflict.
 */
export const idempotencyBody = (request: EmailRequest) => ({
  ...request.input,
  attachments: request.attachments.map((file) => ({
    filename: file.filename,
    content_type: file.content_type,
    content_id: file.content_id,
    sha256: file.upload.sha256,
  })),
});

/**
 * `POST /v1/emails`: one email, rendered now (template and variables, text derived from HTML), queued
 * for the worker (or `scheduled` until its time) in its own thread, by createEmails as every send
 * (the batch, SMTP submission) is. With an Idempotency-Key a repeat within 24 hours answers the first
 * answer instead of sending twice.
 */
function sendEmail(ctx: OrgContext, request: EmailRequest, idempotencyKey: string | null) {
  return withIdempotency(ctx, idempotencyKey, idempotencyBody(request), async (tx) => {
    const ids = await createEmails(tx, ctx, [request], { idempotencyKey, batch: false });
    return (await emailRecords(tx, ctx, ids))[0];
  });
}

/**
 * A message submitted over SMTP: made an email as `sendEmail` makes one, answered with its id alone
 * (what the SMTP reply says; the record is not read back). Its idempotency keys are `smtp:`
 * Message-IDs, apart from the API's.
 */
export function submitEmail(ctx: OrgContext, request: EmailRequest, idempotencyKey: string | null): Promise<{ id: string }> {
  return withIdempotency(ctx, idempotencyKey, idempotencyBody(request), async (tx) => {
    const [id] = await createEmails(tx, ctx, [request], { idempotencyKey, batch: false });
    return { id };
  });
}

/** `POST /v1/emails` as the API receives it: the body and the spool of its attachments' content. */
export const sendTransactionalEmail = (ctx: OrgContext, input: SendEmailInput, idempotencyKey: string | null, spool?: AttachmentSpool) =>
  sendEmail(ctx, { input, attachments: attachmentFiles(input, spool) }, idempotencyKey);

/**
 * `POST /v1/emails/batch`: up to 100 emails in one transaction, all or none; the key covers the whole
 * batch, so a repeat creates nothing new and answers the same ids.
 */
export function sendEmailBatch(ctx: OrgContext, inputs: SendEmailInput[], idempotencyKey: string | null) {
  return withIdempotency(ctx, idempotencyKey, inputs, async (tx) => {
    const ids = await createEmails(
      tx,
      ctx,
      inputs.map((input) => ({ input, attachments: [] })),
      { idempotencyKey, batch: true },
    );
    return { data: ids.map((id) => ({ id })) };
  });
}

/**
 * `POST /v1/emails/{id}/cancel`: a scheduled email becomes `cancelled` and its attachments go. Any
 * other state is 400 EMAIL_NOT_CANCELLABLE (a queued email may be on its way to the server already).
 * A sending key cancels only the emails it created: another's is answered as not found.
 */
export async function cancelEmail(ctx: OrgContext, id: string) {
  const organization_id = ctx.organizationId;
  const email = await db.email.findFirst({ where: { id, organization_id }, select: { status: true, broadcast_id: true, api_key_id: true } });
  if (!email || (ctx.keyScope?.permission === "sending_access" && email.api_key_id !== ctx.apiKeyId)) throw notFound("Email");
  if (email.broadcast_id !== null) {
    throw new AppError("EMAIL_NOT_CANCELLABLE", "An email of a broadcast is cancelled with its broadcast (POST /v1/broadcasts/{id}/cancel)", {
      status: email.status,
    });
  }
  return db.$transaction(async (tx) => {
    const { count } = await tx.email.updateMany({ where: { id, organization_id, status: "scheduled", broadcast_id: null }, data: { status: "cancelled" } });
    if (count === 0) {
      const now = await tx.email.findFirst({ where: { id, organization_id }, select: { status: true } });
      throw new AppError("EMAIL_NOT_CANCELLABLE", `Only a scheduled email can be cancelled; this one is ${now?.status ?? "gone"}`, {
        status: now?.status ?? null,
      });
    }
    await tx.$executeRaw`DELETE FROM email_attachments WHERE email_id = ${id}::uuid AND organization_id = ${organization_id}::uuid`;
    return tx.email.findFirstOrThrow({ where: { id, organization_id }, select: emailSelect });
  });
}
