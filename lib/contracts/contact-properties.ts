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
    "Once typed, a write of `metadata.<key>` (create, update, bulk) with a value of another type is 400 naming " +
    '`metadata.<key>`; a CSV import converts the cell (`"42"` → 42; yes/no/true/false/1/0; ISO dates) or lists the row ' +
    "in `errors`. Filters compare the key with its type. A key of a contact field is 400, one that exists 409 CONFLICT; " +
    `an organization has at most ${MAX_CONTACT_PROPERTIES} properties.`,
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
