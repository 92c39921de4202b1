import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { createTopic, deleteTopic, getTopic, listTopics, updateTopic } from "@/lib/services/topics";
import { createTopicContract, listTopicsContract, getTopicContract, updateTopicContract, deleteTopicContract } from "@/lib/contracts/topics";

export const createTopicOperation = defineOperation({
  ...createTopicContract,
  handler: (ctx, { body }) => createTopic(ctx, body),
});

export const listTopicsOperation = defineOperation({
  ...listTopicsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { page }) => listTopics(ctx, page),
});

export const getTopicOperation = defineOperation({
  ...getTopicContract,
  handler: (ctx, { params }) => getTopic(ctx, params.id),
});

export const updateTopicOperation = defineOperation({
  ...updateTopicContract,
  handler: (ctx, { params, body }) => updateTopic(ctx, params.id, body),
});

export const deleteTopicOperation = defineOperation({
  ...deleteTopicContract,
  handler: (ctx, { params }) => deleteTopic(ctx, params.id),
});

export const topicsOperations = [createTopicOperation, listTopicsOperation, getTopicOperation, updateTopicOperation, deleteTopicOperation];
