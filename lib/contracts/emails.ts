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
  description: "Newest first; filters combine with AND. Page mode (`page`, `limit`) answers `{ data, pagination }`; with `after` or `before`, a cursor list.",
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
    "Queues one email (`queued`, in a new thread) and answers it; it is sent through `inbox_id` (which must be verified) or else the organization's relay. `from` must be at a verified domain, or be the inbox's own address. One email is one message to all its recipients. A suppressed recipient is 422 RECIPIENT_SUPPRESSED, each in `details` with the reason and since when (one suppressed later is left out; with none left the email is `cancelled`). A sending key with a domain sends from it only (403). `Idempotency-Key`: the same key and body within 24 hours answers the first answer and sends nothing; another body is 409.",
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
    "1 to 100 emails as `POST /v1/emails` takes them (no `attachments`), all or none: any refused refuses the batch, its issues naming the index (`3.to`). Answers the ids in order; one `Idempotency-Key` covers the batch. Body: at most 10 MB.",
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
    "A `scheduled` email becomes `cancelled`; any other status is 400 with it in `details` (a queued email may already be at the server). A sending key cancels only its own emails.",
  auth: "member",
  params: idParams,
  response: email,
  errors: ["NOT_FOUND", "EMAIL_NOT_CANCELLABLE"],
});
