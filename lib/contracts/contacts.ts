import { idParams, successResponse } from "@/lib/schemas/common";
import {
  bulkContactsInput,
  bulkContactsResult,
  checkEmailsInput,
  checkEmailsResult,
  contact,
  deleteContactQuery,
  contactList,
  createContactInput,
  importContactsInput,
  importContactsResult,
  listContactsPageQuery,
  listContactsQuery,
  MAX_IMPORT_BODY_BYTES,
  updateContactInput,
} from "@/lib/schemas/contacts";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Contacts";

export const listContactsContract = defineContract({
  method: "GET",
  path: "/v1/contacts",
  tag,
  summary: "List contacts",
  description:
    "Newest first; filters combine with AND. With `limit` one page from `offset`; without, every matching contact from `offset` on, streamed (`limit` in the answer is the number returned). An unknown `segment_id`, or a `filter` that does not parse or that the language refuses, is 400 naming the path.",
  auth: "member",
  query: listContactsQuery,
  pageQuery: listContactsPageQuery,
  response: contactList,
});

export const createContactContract = defineContract({
  method: "POST",
  path: "/v1/contacts",
  tag,
  summary: "Create a contact",
  description: "An email that is already a contact is 409. A typed metadata key's value of another type is 400 naming `metadata.<key>`.",
  auth: "member",
  body: createContactInput,
  status: 201,
  response: contact,
  errors: ["CONFLICT"],
});

export const getContactContract = defineContract({
  method: "GET",
  path: "/v1/contacts/{id}",
  tag,
  summary: "Retrieve a contact",
  auth: "member",
  params: idParams,
  response: contact,
  errors: ["NOT_FOUND"],
});

export const updateContactContract = defineContract({
  method: "PUT",
  path: "/v1/contacts/{id}",
  tag,
  summary: "Update a contact",
  description: "Only the fields given change; another contact's email is 409. `subscribed: false` records `unsubscribed_at`, `true` clears it.",
  auth: "member",
  params: idParams,
  body: updateContactInput,
  response: contact,
  errors: ["NOT_FOUND", "CONFLICT"],
});

export const deleteContactContract = defineContract({
  method: "DELETE",
  path: "/v1/contacts/{id}",
  tag,
  summary: "Delete a contact",
  description:
    "With `erase=true` its address and names also leave its emails, events, threads, comments, audit entries and webhook deliveries (kept as a hash, so counts stay), opens and clicks lose IP and device, unsent emails are cancelled and a suppression of it keeps only the hash.",
  auth: "member",
  params: idParams,
  query: deleteContactQuery,
  response: successResponse,
  errors: ["NOT_FOUND"],
});

export const bulkCreateContactsContract = defineContract({
  method: "POST",
  path: "/v1/contacts/bulk",
  operationId: "bulkCreateContacts",
  tag,
  summary: "Bulk create contacts",
  description:
    "Validated whole first: an invalid element is 400 with its index in `details`, and nothing is written. Existing emails are left unchanged and not counted; one repeated in the batch is created from its first occurrence.",
  auth: "member",
  body: bulkContactsInput,
  maxBodyBytes: 32 * 1024 * 1024,
  response: bulkContactsResult,
});

export const checkEmailsContract = defineContract({
  method: "POST",
  path: "/v1/contacts/check-emails",
  operationId: "checkContactEmails",
  tag,
  summary: "Check which emails are contacts",
  description: "Each input string is answered as given, in input order, repeats removed; it is matched trimmed and " + "case-insensitively.",
  auth: "member",
  body: checkEmailsInput,
  response: checkEmailsResult,
});

export const importContactsContract = defineContract({
  method: "POST",
  path: "/v1/contacts/import",
  tag,
  summary: "Import contacts from CSV",
  description:
    "Matched by email: existing contacts get the mapped values (empty cells change nothing, metadata is merged, tags added). `subscribed` takes true/false, yes/no, 1/0; tags split on `,` or `;`; typed metadata keys are converted. A row with an invalid or repeated email, a value that does not convert, or that would pass 20 tags, 50 metadata keys or 16 KB of metadata is skipped and listed in `errors` (the first 1 000, `row` 1 being the header; `errors_total` counts all). A mapping to a missing column, none to `email`, a property mapped twice, over 50 metadata columns or a row over a million characters is 400.",
  auth: "member",
  body: importContactsInput,
  maxBodyBytes: MAX_IMPORT_BODY_BYTES,
  response: importContactsResult,
  errors: ["PAYLOAD_TOO_LARGE", "SEGMENT_IS_DYNAMIC"],
});
