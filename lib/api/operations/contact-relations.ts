import { defineOperation } from "@/lib/api/operation";
import { listContactSegmentsContract, listContactTopicsContract } from "@/lib/contracts/contact-relations";
import { listContactSegments, listContactTopics } from "@/lib/services/contact-relations";

export const listContactSegmentsOperation = defineOperation({
  ...listContactSegmentsContract,
  handler: (ctx, { params }) => listContactSegments(ctx, params.id),
});

export const listContactTopicsOperation = defineOperation({
  ...listContactTopicsContract,
  handler: (ctx, { params }) => listContactTopics(ctx, params.id),
});

export const contactRelationsOperations = [listContactSegmentsOperation, listContactTopicsOperation];
