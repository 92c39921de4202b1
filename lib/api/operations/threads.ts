import { defineOperation } from "@/lib/api/operation";
import { createComment, listComments } from "@/lib/services/comments";
import { deleteDraft, getThread, saveDraft } from "@/lib/services/threads";
import { getThreadContract, saveDraftContract, deleteDraftContract, createCommentContract, listCommentsContract } from "@/lib/contracts/threads";

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

export const threadsOperations = [getThreadOperation, saveDraftOperation, deleteDraftOperation, createCommentOperation, listCommentsOperation];
