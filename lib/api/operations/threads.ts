import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { createComment, listComments } from "@/lib/services/comments";
import { readIdempotencyKey } from "@/lib/services/idempotency";
import { listThreads } from "@/lib/services/thread-list";
import { replyToThread } from "@/lib/services/thread-reply";
import { deleteDraft, getThread, saveDraft, updateThread } from "@/lib/services/threads";
import {
  getThreadContract,
  saveDraftContract,
  deleteDraftContract,
  createCommentContract,
  listCommentsContract,
  listThreadsContract,
  updateThreadContract,
  replyToThreadContract,
} from "@/lib/contracts/threads";

export const listThreadsOperation = defineOperation({
  ...listThreadsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { query, page }) => listThreads(ctx, query, page),
});

export const updateThreadOperation = defineOperation({
  ...updateThreadContract,
  handler: (ctx, { params, body }) => updateThread(ctx, params.threadId, body),
});

export const replyToThreadOperation = defineOperation({
  ...replyToThreadContract,
  handler: (ctx, { params, body, request }) => replyToThread(ctx, params.threadId, body, readIdempotencyKey(request)),
});

export const getThreadOperation = defineOperation({
  ...getThreadContract,
  handler: (ctx, { params }) => getThread(ctx, params.threadId),
});

export const saveDraftOperation = defineOperation({
  ...saveDraftContract,
  handler: (ctx, { params, body }) => saveDraft(ctx, params.threadId, body),
});

export const deleteDraftOperation = defineOperation({
  ...deleteDraftContract,
  handler: (ctx, { params }) => deleteDraft(ctx, params.threadId),
});

export const createCommentOperation = defineOperation({
  ...createCommentContract,
  handler: (ctx, { params, body }) => createComment(ctx, params.emailId, body),
});

export const listCommentsOperation = defineOperation({
  ...listCommentsContract,
  handler: (ctx, { params }) => listComments(ctx, params.emailId),
});

export const threadsOperations = [
  listThreadsOperation,
  getThreadOperation,
  updateThreadOperation,
  replyToThreadOperation,
  saveDraftOperation,
  deleteDraftOperation,
  createCommentOperation,
  listCommentsOperation,
];
