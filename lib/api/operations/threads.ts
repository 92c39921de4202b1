import { defineOperation } from "@/lib/api/operation";
import { listEnvelope } from "@/lib/api/pagination";
import { comment, createCommentInput, emailCommentParams } from "@/lib/schemas/comments";
import { successResponse } from "@/lib/schemas/common";
import { draft, saveDraftInput, thread, threadParams } from "@/lib/schemas/threads";
import { createComment, listComments } from "@/lib/services/comments";
import { deleteDraft, getThread, saveDraft } from "@/lib/services/threads";

const tag = "Threads";

export const getThreadOperation = defineOperation({
  method: "GET",
  path: "/v1/threads/{threadId}",
  tag,
  summary: "Retrieve a thread",
  description: "The conversation's emails, oldest first, and its saved draft reply.",
  auth: "member",
  params: threadParams,
  response: thread,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => getThread(ctx, params.threadId),
});

export const saveDraftOperation = defineOperation({
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
  handler: (ctx, { params, body }) => saveDraft(ctx, params.threadId, body),
});

export const deleteDraftOperation = defineOperation({
  method: "DELETE",
  path: "/v1/threads/{threadId}/draft",
  tag,
  summary: "Discard the draft reply of a thread",
  description: "Answers `{ success: true }` also when the thread has no draft; the thread must exist.",
  auth: "member",
  params: threadParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => deleteDraft(ctx, params.threadId),
});

export const createCommentOperation = defineOperation({
  method: "POST",
  path: "/v1/threads/emails/{emailId}/comments",
  tag,
  summary: "Comment on an email",
  description: "An internal note for the team; the recipient never sees it.",
  auth: "member",
  params: emailCommentParams,
  body: createCommentInput,
  status: 201,
  response: comment,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params, body }) => createComment(ctx, params.emailId, body),
});

export const listCommentsOperation = defineOperation({
  method: "GET",
  path: "/v1/threads/emails/{emailId}/comments",
  tag,
  summary: "List the comments on an email",
  description: "Every comment, oldest first.",
  auth: "member",
  params: emailCommentParams,
  response: listEnvelope(comment),
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => listComments(ctx, params.emailId),
});

export const threadsOperations = [getThreadOperation, saveDraftOperation, deleteDraftOperation, createCommentOperation, listCommentsOperation];
