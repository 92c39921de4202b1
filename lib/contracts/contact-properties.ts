import { idParams, successResponse } from "@/lib/schemas/common";
import { contactProperty, createContactPropertyInput, MAX_CONTACT_PROPERTIES } from "@/lib/schemas/contact-properties";
import { listEnvelope } from "@/lib/schemas/pagination";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Contact properties";

export const createContactPropertyContract = defineContract({
  method: "POST",
  path: "/v1/contact-properties",
  tag,
  summary: "Type a metadata key",
  description:
    "Then a write of `metadata.<key>` of another type is 400 naming it, a CSV import converts the cell or lists the row in `errors`, and " +
    `filters compare by type. A contact field's key is 400, an existing one 409; at most ${MAX_CONTACT_PROPERTIES} per organization.`,
  auth: "member",
  body: createContactPropertyInput,
  status: 201,
  response: contactProperty,
  errors: ["CONFLICT"],
});

export const listContactPropertiesContract = defineContract({
  method: "GET",
  path: "/v1/contact-properties",
  tag,
  summary: "List contact properties",
  description: "Every typed key of the organization, by key.",
  auth: "member",
  response: listEnvelope(contactProperty),
});

export const deleteContactPropertyContract = defineContract({
  method: "DELETE",
  path: "/v1/contact-properties/{id}",
  tag,
  summary: "Delete a contact property",
  description: "The key becomes free text again; the values contacts hold are kept.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});
