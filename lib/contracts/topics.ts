import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createTopicInput, topic, updateTopicInput } from "@/lib/schemas/topics";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Topics";

export const createTopicContract = defineContract({
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
});

export const listTopicsContract = defineContract({
  method: "GET",
  path: "/v1/topics",
  tag,
  summary: "List topics",
  description: "Newest first, always paginated (20 a page unless `limit` says otherwise).",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(topic),
});

export const getTopicContract = defineContract({
  method: "GET",
  path: "/v1/topics/{id}",
  tag,
  summary: "Retrieve a topic",
  auth: "member",
  params: idParams,
  response: topic,
  errors: ["NOT_FOUND"],
});

export const updateTopicContract = defineContract({
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
});

export const deleteTopicContract = defineContract({
  method: "DELETE",
  path: "/v1/topics/{id}",
  tag,
  summary: "Delete a topic",
  description: "Contacts' subscriptions to it are removed; broadcasts that used it lose the reference.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});
