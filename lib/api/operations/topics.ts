import { defineOperation } from "@/lib/api/operation";
import { cursorQuery, listEnvelope, parseCursorParams } from "@/lib/api/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createTopicInput, topic, updateTopicInput } from "@/lib/schemas/topics";
import { createTopic, deleteTopic, getTopic, listTopics, updateTopic } from "@/lib/services/topics";

const tag = "Topics";

export const createTopicOperation = defineOperation({
  method: "POST",
  path: "/v1/topics",
  tag,
  summary: "Create a topic",
  description: "A topic categorizes broadcasts; contacts subscribe to or leave topics one by one.",
  auth: "member",
  body: createTopicInput,
  status: 201,
  response: topic,
  errors: ["VALIDATION_ERROR"],
  handler: (ctx, { body }) => createTopic(ctx, body),
});

export const listTopicsOperation = defineOperation({
  method: "GET",
  path: "/v1/topics",
  tag,
  summary: "List topics",
  description: "Newest first, always paginated (20 a page unless `limit` says otherwise).",
  auth: "member",
  page: (search) => parseCursorParams(search),
  pageQuery: cursorQuery,
  response: listEnvelope(topic),
  handler: (ctx, { page }) => listTopics(ctx, page),
});

export const getTopicOperation = defineOperation({
  method: "GET",
  path: "/v1/topics/{id}",
  tag,
  summary: "Retrieve a topic",
  auth: "member",
  params: idParams,
  response: topic,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => getTopic(ctx, params.id),
});

export const updateTopicOperation = defineOperation({
  method: "PUT",
  path: "/v1/topics/{id}",
  tag,
  summary: "Update a topic",
  description: "Every field is optional.",
  auth: "member",
  params: idParams,
  body: updateTopicInput,
  response: topic,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
  handler: (ctx, { params, body }) => updateTopic(ctx, params.id, body),
});

export const deleteTopicOperation = defineOperation({
  method: "DELETE",
  path: "/v1/topics/{id}",
  tag,
  summary: "Delete a topic",
  description: "Contacts' subscriptions to it are removed; broadcasts that used it lose the reference.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => deleteTopic(ctx, params.id),
});

export const topicsOperations = [createTopicOperation, listTopicsOperation, getTopicOperation, updateTopicOperation, deleteTopicOperation];
