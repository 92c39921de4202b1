import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { listEnvelope, parseCursorParams, parseLimit, parseNonNegative } from "@/lib/api/pagination";
import { idParams } from "@/lib/schemas/common";
import { email, emailDetail, emailPage, emailPageQuery, listEmailsQuery } from "@/lib/schemas/emails";
import { getEmail, listEmails, type EmailListPage } from "@/lib/services/emails";
import { sendEmailInput } from "@/lib/schemas/send-email";
import { readIdempotencyKey } from "@/lib/sending/idempotency";
import { sendTransactionalEmail } from "@/lib/sending/transactional";

const tag = "Emails";

/** Page mode (`page`, `limit`) unless a cursor is given; bad values are the 422 pagination body. */
function parseEmailListPage(search: URLSearchParams): EmailListPage {
  const page = parseNonNegative("page", search.get("page"), 1) ?? 1;
  if (search.has("after") || search.has("before")) return { mode: "cursor", ...parseCursorParams(search) };
  return { mode: "page", page, limit: parseLimit(search.get("limit")) ?? 20 };
}

export const listEmailsOperation = defineOperation({
  method: "GET",
  path: "/v1/emails",
  tag,
  summary: "List emails",
  description:
    "Newest first. Page mode by default (`page`, `limit`) answering `{ data, pagination }`; with `after` or " +
    "`before` the cursor list `{ object, has_more, data }`. Filters combine with AND.",
  auth: "member",
  query: listEmailsQuery,
  page: parseEmailListPage,
  pageQuery: emailPageQuery,
  response: z.union([emailPage, listEnvelope(email)]),
  handler: (ctx, { query, page }) => listEmails(ctx, query, page),
});

export const getEmailOperation = defineOperation({
  method: "GET",
  path: "/v1/emails/{id}",
  tag,
  summary: "Retrieve an email",
  description: "The email with its events (oldest first) and its headers.",
  auth: "member",
  params: idParams,
  response: emailDetail,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => getEmail(ctx, params.id),
});

export const sendEmailOperation = defineOperation({
  method: "POST",
  path: "/v1/emails",
  tag,
  summary: "Send an email",
  description:
    "Queues one email and answers its record (status `queued`, in a new thread); the worker sends it at once, through " +
    "`inbox_id` when given (its SMTP server, and its sender unless `from` is given; the inbox must be verified, 400 INBOX_NOT_VERIFIED) " +
    "or else the organization's relay. `from` must be at a verified domain, or through an inbox be that inbox's own address (400 DOMAIN_NOT_VERIFIED). Content: `html` and/or `text`, or a `template_id` whose " +
    "`{{placeholders}}` are filled from `variables` (then from the contact with the `to` address); the text part is derived " +
    "from the HTML when not given. Temporary SMTP failures are retried with backoff; a permanent one bounces the email and " +
    "suppresses the address. A `to` address already suppressed is refused: 422 RECIPIENT_SUPPRESSED with the reason and since when in `details` " +
    "(one suppressed later is not sent to: the email becomes `cancelled`). `Idempotency-Key` header: the same key with the same body within 24 hours answers the first " +
    "answer and sends nothing more; with another body 409 CONFLICT.",
  auth: "member",
  body: sendEmailInput,
  status: 201,
  response: email,
  errors: ["VALIDATION_ERROR", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED", "RECIPIENT_SUPPRESSED", "CONFLICT"],
  handler: (ctx, { body, request }) => sendTransactionalEmail(ctx, body, readIdempotencyKey(request)),
});

export const emailsOperations = [listEmailsOperation, getEmailOperation, sendEmailOperation];
