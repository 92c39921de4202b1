import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { form, formInput } from "@/lib/schemas/forms";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Forms";

export const createFormContract = defineContract({
  method: "POST",
  path: "/v1/forms",
  tag,
  summary: "Create a form",
  description:
    "With double opt-in (the default) a submission creates an unsubscribed contact and mails it a link that subscribes it (`contact.subscribed`, a consent record); without, it subscribes at once.",
  auth: "member",
  body: formInput,
  status: 201,
  response: form,
  errors: ["VALIDATION_ERROR", "DOMAIN_NOT_VERIFIED"],
});

export const listFormsContract = defineContract({
  method: "GET",
  path: "/v1/forms",
  tag,
  summary: "List forms",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(form),
});

export const getFormContract = defineContract({
  method: "GET",
  path: "/v1/forms/{id}",
  tag,
  summary: "Retrieve a form",
  auth: "member",
  params: idParams,
  response: form,
  errors: ["NOT_FOUND"],
});

export const updateFormContract = defineContract({
  method: "PUT",
  path: "/v1/forms/{id}",
  tag,
  summary: "Update a form",
  auth: "member",
  params: idParams,
  body: formInput,
  response: form,
  errors: ["VALIDATION_ERROR", "DOMAIN_NOT_VERIFIED", "NOT_FOUND"],
});

export const deleteFormContract = defineContract({
  method: "DELETE",
  path: "/v1/forms/{id}",
  tag,
  summary: "Delete a form",
  description: "Its page and endpoint answer 404; contacts it made stay.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});
