import { z } from "zod";
import { listEnvelope } from "@/lib/schemas/pagination";
import { idParams } from "@/lib/schemas/common";
import { email, emailDetail, emailPage, emailPageQuery, listEmailsQuery } from "@/lib/schemas/emails";
import { sendEmailInput } from "@/lib/schemas/send-email";
import { defineContract } from "@/lib/contracts/contract";

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
});
