import { defineOperation } from "@/lib/api/operation";
import { listContactSegmentsContract } from "@/lib/contracts/contact-relations";
import { listContactSegments } from "@/lib/services/contact-relations";

export const listContactSegmentsOperation = defineOperation({
  ...listContactSegmentsContract,
  handler: (ctx, { params }) => listContactSegments(ctx, params.id),
});

export const contactRelationsOperations = [listContactSegmentsOperation];
