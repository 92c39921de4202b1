import { defineOperation } from "@/lib/api/operation";
import { parseOptionalCursorParams } from "@/lib/api/pagination";
import { sendInboxConfirmation } from "@/lib/services/inbox-confirmation";
import { createInbox, deleteInbox, getInbox, listInboxes, testInbox, updateInbox } from "@/lib/services/inboxes";
import {
  createInboxContract,
  listInboxesContract,
  getInboxContract,
  updateInboxContract,
  deleteInboxContract,
  sendInboxConfirmationContract,
  testInboxContract,
} from "@/lib/contracts/inboxes";

export const createInboxOperation = defineOperation({
  ...createInboxContract,
  handler: (ctx, { body }) => createInbox(ctx, body),
});

export const listInboxesOperation = defineOperation({
  ...listInboxesContract,
  page: (search) => parseOptionalCursorParams(search),
  handler: (ctx, { page }) => listInboxes(ctx, page),
});

export const getInboxOperation = defineOperation({
  ...getInboxContract,
  handler: (ctx, { params }) => getInbox(ctx, params.id),
});

export const updateInboxOperation = defineOperation({
  ...updateInboxContract,
  handler: (ctx, { params, body }) => updateInbox(ctx, params.id, body),
});

export const deleteInboxOperation = defineOperation({
  ...deleteInboxContract,
  handler: (ctx, { params }) => deleteInbox(ctx, params.id),
});

export const sendInboxConfirmationOperation = defineOperation({
  ...sendInboxConfirmationContract,
  handler: (ctx, { params }) => sendInboxConfirmation(ctx, params.id),
});

export const testInboxOperation = defineOperation({
  ...testInboxContract,
  handler: (ctx, { params }) => testInbox(ctx, params.id),
});

export const inboxesOperations = [
  createInboxOperation,
  listInboxesOperation,
  getInboxOperation,
  updateInboxOperation,
  deleteInboxOperation,
  sendInboxConfirmationOperation,
  testInboxOperation,
];
