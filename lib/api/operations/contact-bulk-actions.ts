import { defineOperation } from "@/lib/api/operation";
import { contactBulkActionContract, getContactBulkJobContract } from "@/lib/contracts/contact-bulk-actions";
import { getContactBulkJob, startContactBulkAction } from "@/lib/services/contact-bulk-actions";

export const contactBulkActionOperation = defineOperation({
  ...contactBulkActionContract,
  handler: (ctx, { body }) => startContactBulkAction(ctx, body),
});

export const getContactBulkJobOperation = defineOperation({
  ...getContactBulkJobContract,
  handler: (ctx, { params }) => getContactBulkJob(ctx, params.id),
});

export const contactBulkActionsOperations = [contactBulkActionOperation, getContactBulkJobOperation];
