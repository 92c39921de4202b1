import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { comment, createCommentInput, emailCommentParams } from "@/lib/schemas/comments";
import { successResponse } from "@/lib/schemas/common";
import { email } from "@/lib/schemas/emails";
import { draft, listThreadsQuery, replyToThreadInput, saveDraftInput, thread, threadParams, threadSummary, updateThreadInput } from "@/lib/schemas/threads";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Threads";

export const listThreadsContract = defineContract({
  method: "GET",
  path: "/v1/threads",
  tag,
  summary: "List replied threads",
  description:
    "The unified inbox: every thread with a reply, newest activity first, across the organization's inboxes. A cursor stays valid when its thread's category changes.",
  auth: "member",
  query: listThreadsQuery,
  pageQuery: cursorQuery,
  response: listEnvelope(threadSummary),
});

export const updateThreadContract = defineContract({
  method: "PATCH",
  path: "/v1/threads/{threadId}",
  tag,
  summary: "Update a thread",
  description: "Sets the category (`done` once dealt with); the next reply sets it again by the rules.",
  auth: "member",
  params: threadParams,
  body: updateThreadInput,
  response: thread,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const replyToThreadContract = defineContract({
  method: "POST",
  path: "/v1/threads/{threadId}/reply",
  tag,
  summary: "Reply in a thread",
  description:
    "Queues a reply from the thread's inbox to the latest sender, threaded (In-Reply-To, References, `Re:`), and discards the draft. Needs `html_content`, `text_content` or `use_draft`. `Idempotency-Key` as for `POST /v1/emails`.",
  auth: "member",
  params: threadParams,
  body: replyToThreadInput,
  status: 201,
  response: email,
  errors: ["VALIDATION_ERROR", "BAD_REQUEST", "INBOX_NOT_VERIFIED", "INBOX_CONNECTION_FAILED", "RECIPIENT_SUPPRESSED", "NOT_FOUND", "CONFLICT"],
});

export const getThreadContract = defineContract({
  method: "GET",
  path: "/v1/threads/{threadId}",
  tag,
  summary: "Retrieve a thread",
  description: "The conversation's emails, oldest first, and its saved draft reply.",
  auth: "member",
  params: threadParams,
  response: thread,
  errors: ["NOT_FOUND"],
});

export const saveDraftContract = defineContract({
  method: "PUT",
  path: "/v1/threads/{threadId}/draft",
  tag,
  summary: "Save the draft reply of a thread",
  description: "Creates the thread's draft or updates it; fields not given keep their saved value.",
  auth: "member",
  params: threadParams,
  body: saveDraftInput,
  response: draft,
  errors: ["NOT_FOUND"],
});

export const deleteDraftContract = defineContract({
  method: "DELETE",
  path: "/v1/threads/{threadId}/draft",
  tag,
  summary: "Discard the draft reply of a thread",
  description: "Answers `{ success: true }` also when the thread has no draft; the thread must exist.",
  auth: "member",
  params: threadParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});

export const createCommentContract = defineContract({
  method: "POST",
  path: "/v1/threads/emails/{emailId}/comments",
  operationId: "createEmailComment",
  tag,
  summary: "Comment on an email",
  description: "An internal note for the team; the recipient never sees it.",
  auth: "member",
  params: emailCommentParams,
  body: createCommentInput,
  status: 201,
  response: comment,
  errors: ["NOT_FOUND"],
});

export const listCommentsContract = defineContract({
  method: "GET",
  path: "/v1/threads/emails/{emailId}/comments",
  operationId: "listEmailComments",
  tag,
  summary: "List the comments on an email",
  description: "Every comment, oldest first.",
  auth: "member",
  params: emailCommentParams,
  response: listEnvelope(comment),
  errors: ["NOT_FOUND"],
});
