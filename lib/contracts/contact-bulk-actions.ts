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
    "Adds to or removes from a static segment (a dynamic one is 409 SEGMENT_IS_DYNAMIC), adds or removes tags, unsubscribes or " +
    "deletes the contacts named by `contact_ids` (each must exist: 400 naming it) or matching `filter`. Up to 1 000 contacts are " +
    "changed at once and counted in `affected`; a filter matching more starts a job (`job`, progress at " +
    "`GET /v1/contacts/bulk-actions/jobs/{id}`), at most 3 running or queued per organization (then 429). A contact that would carry " +
    "more than 20 tags is left as it is. Tag and subscription changes emit `contact.updated` (and `contact.unsubscribed`).",
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
