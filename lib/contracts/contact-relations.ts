import { idParams } from "@/lib/schemas/common";
import { contactSegments } from "@/lib/schemas/contact-relations";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Contacts";

export const listContactSegmentsContract = defineContract({
  method: "GET",
  path: "/v1/contacts/{id}/segments",
  tag,
  summary: "List a contact's segments",
  description: "Static segments it was added to (latest first), then dynamic ones whose filter it matches now (by name); at most 1 000.",
  auth: "member",
  params: idParams,
  response: contactSegments,
  errors: ["NOT_FOUND"],
});
