import { idParams } from "@/lib/schemas/common";
import { contactBulkActionInput, contactBulkActionResult, contactBulkJob } from "@/lib/schemas/contact-bulk-actions";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Contacts";

export const contactBulkActionContract = defineContract({
  method: "POST",
  path: "/v1/contacts/bulk-actions",
  tag,
  summary: "Act on many contacts",
  description:
    "Applies `action` to the contacts of `contact_ids` (each must exist: 400 naming it) or matching `filter`. Up to 1 000 at once, counted in `affected`; more start a `job` (progress at `GET /v1/contacts/bulk-actions/jobs/{id}`; at most 3 open per organization, then 429). A contact that would pass 20 tags is left as it is. Changes emit `contact.updated` (and `contact.unsubscribed`).",
  auth: "member",
  body: contactBulkActionInput,
  response: contactBulkActionResult,
  errors: ["VALIDATION_ERROR", "SEGMENT_IS_DYNAMIC", "RATE_LIMITED"],
});

export const getContactBulkJobContract = defineContract({
  method: "GET",
  path: "/v1/contacts/bulk-actions/jobs/{id}",
  tag,
  summary: "Progress of a bulk action",
  auth: "member",
  params: idParams,
  response: contactBulkJob,
  errors: ["NOT_FOUND"],
});
