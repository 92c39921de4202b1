import { defineOperation } from "@/lib/api/operation";
import { contactFields as listContactFields } from "@/lib/services/contact-fields";
import { broadcastChecks } from "@/lib/services/presend-checks";
import { broadcastChecksContract, broadcastPreviewContract, contactFieldsContract } from "@/lib/contracts/presend-checks";
import { previewBroadcast } from "@/lib/services/email-preview";

export const broadcastChecksOperation = defineOperation({
  ...broadcastChecksContract,
  handler: (ctx, { params, query, request }) => broadcastChecks(ctx, params.id, { signal: request.signal, stepId: query.step_id }),
});

export const broadcastPreviewOperation = defineOperation({
  ...broadcastPreviewContract,
  handler: (ctx, { params, query }) => previewBroadcast(ctx, params.id, query),
});

export const contactFieldsOperation = defineOperation({
  ...contactFieldsContract,
  handler: (ctx) => listContactFields(ctx),
});

export const presendCheckOperations = [broadcastChecksOperation, broadcastPreviewOperation, contactFieldsOperation];
