import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams, parseLimit, parseNonNegative } from "@/lib/api/pagination";
import { getEmail, listEmails, type EmailListPage } from "@/lib/services/emails";
import { readIdempotencyKey } from "@/lib/services/idempotency";
import { sendTransactionalEmail } from "@/lib/services/transactional";
import { listEmailsContract, getEmailContract, sendEmailContract } from "@/lib/contracts/emails";

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
  handler: (ctx, { body, request }) => sendTransactionalEmail(ctx, body, readIdempotencyKey(request)),
});

export const emailsOperations = [listEmailsOperation, getEmailOperation, sendEmailOperation];
