import { listEnvelope } from "@/lib/schemas/pagination";
import { comment, createCommentInput, emailCommentParams } from "@/lib/schemas/comments";
import { successResponse } from "@/lib/schemas/common";
import { draft, saveDraftInput, thread, threadParams } from "@/lib/schemas/threads";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Threads";

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
