import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams, parseLimit, parseNonNegative } from "@/lib/api/pagination";
import { getEmail, listEmails, type EmailListPage } from "@/lib/services/emails";
import { readIdempotencyKey } from "@/lib/services/idempotency";
import { spoolAttachmentContent, type AttachmentSpool } from "@/lib/services/attachment-upload";
import { cancelEmail, sendEmailBatch, sendTransactionalEmail } from "@/lib/services/send-emails";
import { listEmailsContract, getEmailContract, sendEmailContract, sendEmailBatchContract, cancelEmailContract } from "@/lib/contracts/emails";

/** Page mode (`page`, `limit`) unless a cursor is given; bad values are the 422 pagination body. */
function parseEmailListPage(search: URLSearchParams): EmailListPage {
  const page = parseNonNegative("page", search.get("page"), 1) ?? 1;
  if (search.has("after") || search.has("before")) return { mode: "cursor", ...parseCursorParams(search) };
  return { mode: "page", page, limit: parseLimit(search.get("limit")) ?? 20 };
}

export const listEmailsOperation = defineOperation({
  ...listEmailsContract,
  page: parseEmailListPage,
  handler: (ctx, { query, page }) => listEmails(ctx, query, page),
});

export const getEmailOperation = defineOperation({
  ...getEmailContract,
  handler: (ctx, { params }) => getEmail(ctx, params.id),
});

export const sendEmailOperation = defineOperation({
  ...sendEmailContract,
  // Each attachment's base64 is decoded into a temporary file as the body arrives: never held whole.
  spooledField: { name: "attachments.*.content", spool: spoolAttachmentContent },
  handler: (ctx, { body, request, spooled }) => sendTransactionalEmail(ctx, body, readIdempotencyKey(request), spooled as AttachmentSpool | undefined),
});

export const sendEmailBatchOperation = defineOperation({
  ...sendEmailBatchContract,
  handler: (ctx, { body, request }) => sendEmailBatch(ctx, body, readIdempotencyKey(request)),
});

export const cancelEmailOperation = defineOperation({
  ...cancelEmailContract,
  handler: (ctx, { params }) => cancelEmail(ctx, params.id),
});

export const emailsOperations = [listEmailsOperation, getEmailOperation, sendEmailOperation, sendEmailBatchOperation, cancelEmailOperation];
