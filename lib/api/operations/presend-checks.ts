import { defineOperation } from "@/lib/api/operation";
import { contactFields as listContactFields } from "@/lib/services/contact-fields";
import { broadcastChecks } from "@/lib/services/presend-checks";
import { broadcastChecksContract, contactFieldsContract } from "@/lib/contracts/presend-checks";

export const broadcastChecksOperation = defineOperation({
  ...broadcastChecksContract,
  handler: (ctx, { params, request }) => broadcastChecks(ctx, params.id, { signal: request.signal }),
});

export const contactFieldsOperation = defineOperation({
  ...contactFieldsContract,
  handler: (ctx) => listContactFields(ctx),
});

export const presendCheckOperations = [broadcastChecksOperation, contactFieldsOperation];
