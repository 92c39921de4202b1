import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { section, sectionInput, updateSectionInput } from "@/lib/schemas/sections";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Sections";

export const createSectionContract = defineContract({
  method: "POST",
  path: "/v1/sections",
  tag,
  summary: "Save a section",
  description: "At most 200 an organization (409 CONFLICT past it).",
  auth: "member",
  body: sectionInput,
  status: 201,
  response: section,
  errors: ["VALIDATION_ERROR", "CONFLICT"],
});

export const listSectionsContract = defineContract({
  method: "GET",
  path: "/v1/sections",
  tag,
  summary: "List saved sections",
  description: "Newest first (20 a page unless `limit` says otherwise).",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(section),
});

export const updateSectionContract = defineContract({
  method: "PUT",
  path: "/v1/sections/{id}",
  tag,
  summary: "Update a saved section",
  auth: "member",
  params: idParams,
  body: updateSectionInput,
  response: section,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const deleteSectionContract = defineContract({
  method: "DELETE",
  path: "/v1/sections/{id}",
  tag,
  summary: "Delete a saved section",
  description: "Emails it was inserted into keep their copy.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});
