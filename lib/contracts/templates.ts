import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createTemplateInput, template, updateTemplateInput } from "@/lib/schemas/templates";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Templates";

export const createTemplateContract = defineContract({
  method: "POST",
  path: "/v1/templates",
  tag,
  summary: "Create a template",
  auth: "member",
  body: createTemplateInput,
  status: 201,
  response: template,
  errors: ["VALIDATION_ERROR", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED"],
});

export const listTemplatesContract = defineContract({
  method: "GET",
  path: "/v1/templates",
  tag,
  summary: "List templates",
  description: "Newest first, always paginated (20 a page unless `limit` says otherwise).",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(template),
});

export const getTemplateContract = defineContract({
  method: "GET",
  path: "/v1/templates/{id}",
  tag,
  summary: "Retrieve a template",
  auth: "member",
  params: idParams,
  response: template,
  errors: ["NOT_FOUND"],
});

export const updateTemplateContract = defineContract({
  method: "PUT",
  path: "/v1/templates/{id}",
  tag,
  summary: "Update a template",
  description: "Only the fields given change; `variables` not given are derived again when the content changes.",
  auth: "member",
  params: idParams,
  body: updateTemplateInput,
  response: template,
  errors: ["VALIDATION_ERROR", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED", "NOT_FOUND"],
});

export const deleteTemplateContract = defineContract({
  method: "DELETE",
  path: "/v1/templates/{id}",
  tag,
  summary: "Delete a template",
  description: "Broadcasts and sequence steps that used it keep their own content and lose the reference.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});
