import { z } from "zod";
import { listEnvelope } from "@/lib/schemas/pagination";
import { idParams } from "@/lib/schemas/common";
import { email, emailDetail, emailPage, emailPageQuery, listEmailsQuery } from "@/lib/schemas/emails";
import { sendEmailBatchInput, sendEmailBatchResponse, sendEmailInput, sendingLimits } from "@/lib/schemas/send-email";
import { defineContract } from "@/lib/contracts/contract";
import type { ErrorCode } from "@/lib/schemas/error-codes";

const tag = "Emails";

export const listEmailsContract = defineContract({
  method: "GET",
  path: "/v1/emails",
  tag,
  summary: "List emails",
  description:
    "Newest first. Page mode by default (`page`, `limit`) answering `{ data, pagination }`; with `after` or " +
    "`before` the cursor list `{ object, has_more, data }`. Filters combine with AND.",
  auth: "member",
  query: listEmailsQuery,
  pageQuery: emailPageQuery,
  response: z.union([emailPage, listEnvelope(email)]),
});

export const getEmailContract = defineContract({
  method: "GET",
  path: "/v1/emails/{id}",
  tag,
  summary: "Retrieve an email",
  description: "The email with its events (oldest first) and its headers.",
  auth: "member",
  params: idParams,
  response: emailDetail,
  errors: ["NOT_FOUND"],
});

/**
 * The body of POST /v1/emails may carry 10 MB of attachments as base64 (4/3 of that) beside the 5 MB
 * every other operation allows for the rest; the attachments' own 10 MB are counted decoded.
 */
const SEND_MAX_BODY = Math.ceil((sendingLimits.attachmentBytes * 4) / 3) + 5 * 1024 * 1024;

/** What a send can answer, one email or a batch of them. */
const SEND_ERRORS: ErrorCode[] = [
  "VALIDATION_ERROR",
  "DOMAIN_NOT_VERIFIED",
  "INBOX_NOT_VERIFIED",
  "RECIPIENT_SUPPRESSED",
  "CONFLICT",
  "FORBIDDEN",
  "PAYLOAD_TOO_LARGE",
];

export const sendEmailContract = defineContract({
  method: "POST",
  path: "/v1/emails",
  operationId: "sendEmail",
  tag,
  summary: "Send an email",
  description:
    "Queues one email and answers its record (status `queued`, in a new thread); the worker sends it at once, through " +
    "`inbox_id` when given (its SMTP server, and its sender unless `from` is given; the inbox must be verified, 400 INBOX_NOT_VERIFIED) " +
    "or else the organization's relay. `from` must be at a verified domain, or through an inbox be that inbox's own address (400 DOMAIN_NOT_VERIFIED). Content: `html` and/or `text`, or a `template_id` whose " +
    "`{{placeholders}}` are filled from `variables` (then from the contact with the first `to` address); the text part is derived " +
    "from the HTML when not given. Recipients: `to` (one address or up to 50), `cc` and `bcc` (up to 50 each; a `bcc` address is in the " +
    "envelope only, never in a header). One email is one message to all of them, as with Resend. `headers`: your own `X-` headers. " +
    "`attachments`: files in base64, at most 10 MB decoded in all (413 PAYLOAD_TOO_LARGE); one with a `content_id` is an inline image " +
    "the HTML shows with `cid:`. `scheduled_at`: the email is `scheduled` until then (at most 30 days ahead) and can be cancelled. " +
    "Temporary SMTP failures are retried with backoff; a permanent one bounces the email and suppresses the address. " +
    "A recipient already suppressed is refused: 422 RECIPIENT_SUPPRESSED, each such address with the reason and since when in `details` " +
    "(one suppressed later is left out of the envelope; with none left the email becomes `cancelled`). A sending key with a domain may " +
    "send from that domain only (403 FORBIDDEN). `Idempotency-Key` header: the same key with the same body within 24 hours answers " +
    "the first answer and sends nothing more; with another body 409 CONFLICT.",
  auth: "member",
  body: sendEmailInput,
  maxBodyBytes: SEND_MAX_BODY,
  status: 201,
  response: email,
  errors: SEND_ERRORS,
});

export const sendEmailBatchContract = defineContract({
  method: "POST",
  path: "/v1/emails/batch",
  tag,
  summary: "Send a batch of emails",
  description:
    "A JSON array of 1 to 100 emails, each as `POST /v1/emails` takes it except `attachments`, validated and created as a whole: " +
    "any email refused refuses the batch, its issues naming the index (`3.to`), and nothing is created. Answers the new ids in the " +
    "order of the request. `Idempotency-Key` covers the whole batch: a repeat answers the same ids and creates nothing. Body: at most 10 MB.",
  auth: "member",
  body: sendEmailBatchInput,
  maxBodyBytes: 10 * 1024 * 1024,
  response: sendEmailBatchResponse,
  errors: SEND_ERRORS,
});

export const cancelEmailContract = defineContract({
  method: "POST",
  path: "/v1/emails/{id}/cancel",
  tag,
  summary: "Cancel a scheduled email",
  description:
    "A `scheduled` email becomes `cancelled` and is never sent. Any other status is 400 EMAIL_NOT_CANCELLABLE with the status in " +
    "`details`: a queued or sent email may already be at the receiving server. A sending key cancels only the emails it created.",
  auth: "member",
  params: idParams,
  response: email,
  errors: ["NOT_FOUND", "EMAIL_NOT_CANCELLABLE"],
});
