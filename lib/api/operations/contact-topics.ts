import { defineOperation } from "@/lib/api/operation";
import { getContactTopicsContract, setContactTopicsContract } from "@/lib/contracts/contact-topics";
import { getContactTopics, setContactTopics } from "@/lib/services/contact-topics";

export const getContactTopicsOperation = defineOperation({
  ...getContactTopicsContract,
  handler: (ctx, { params }) => getContactTopics(ctx, params.id),
});

export const setContactTopicsOperation = defineOperation({
  ...setContactTopicsContract,
  handler: (ctx, { params, body }) => setContactTopics(ctx, params.id, body),
});

export const contactTopicsOperations = [getContactTopicsOperation, setContactTopicsOperation];
