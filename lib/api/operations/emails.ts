import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { listEnvelope, parseCursorParams, parseLimit, parseNonNegative } from "@/lib/api/pagination";
import { idParams } from "@/lib/schemas/common";
import { email, emailDetail, emailPage, emailPageQuery, listEmailsQuery } from "@/lib/schemas/emails";
import { getEmail, listEmails, type EmailListPage } from "@/lib/services/emails";

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

export const emailsOperations = [listEmailsOperation, getEmailOperation];
