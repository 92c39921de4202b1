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
    "Newest first. Filters combine with AND. With `limit` (1 to 100) one page from `offset`; without it every " +
    "matching contact from `offset` on, streamed, and `limit` in the answer is the number returned. " +
    "`subscribed` must be `true` or `false`; an unknown `segment_id` is 400. `filter` is URL-encoded JSON of the filter " +
    "language; JSON that does not parse, or a filter it refuses, is 400 naming the path (`filter.any.1.value`).",
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
  description:
    "The email is stored trimmed and lowercase; an email that is already a contact is 409 CONFLICT. A value of a typed " +
    "metadata key (`/v1/contact-properties`) of another type is 400 naming `metadata.<key>`.",
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
  description:
    "Only the fields given change. Changing the email to one another contact has is 409 CONFLICT. " +
    "`subscribed: false` records `unsubscribed_at`; `subscribed: true` clears it. A value of a typed metadata key of another " +
    "type is 400 naming `metadata.<key>`.",
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
    "Also removes it from its segments. With `erase=true` its address and names also leave its emails, events, threads, comments, audit entries " +
    "and webhook deliveries (the rows stay, so reports keep their counts, with the address as a hash), opens and clicks lose the IP and device, " +
    "emails not sent yet are cancelled, and a suppression of it keeps only the hash.",
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
    "The whole batch is validated first: one invalid element makes the request 400, its index in `details`, " +
    "and nothing is written. Emails that already exist are left unchanged and not counted; an email " +
    "repeated in the batch is created once, from its first occurrence. A value of a typed metadata key of another type is 400 " +
    "naming `contacts.<index>.metadata.<key>`.",
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
    "Matched by email. Existing contacts get the mapped values: empty cells leave a field unchanged, metadata " +
    "keys are merged and tags added. `subscribed` accepts true/false, yes/no, 1/0. Tags split on `,` or `;`. A column " +
    'mapped to a typed metadata key is converted: numbers (`"42"` → 42), booleans (true/false, yes/no, 1/0), ISO dates; ' +
    "a cell that does not convert makes its row an `errors` entry. A dynamic `segment_id` is 409 SEGMENT_IS_DYNAMIC. " +
    "A row without a valid email, with an invalid value, repeating an earlier row's email, or whose tags or " +
    "metadata would give an existing contact more than 20 tags, 50 metadata keys or 16 KB of metadata is " +
    "skipped; the first 1 000 such rows are listed in `errors` in row order (`row` counting the header as row 1, " +
    "`email` cut at 320 characters) and `errors_total` counts them all. A mapping naming a column the header " +
    "lacks, no mapping to `email`, a property mapped twice, more than 50 metadata columns, or a row longer than " +
    "a million characters is 400; decoded CSV over 50 MB is 413.",
  auth: "member",
  body: importContactsInput,
  maxBodyBytes: MAX_IMPORT_BODY_BYTES,
  response: importContactsResult,
  errors: ["PAYLOAD_TOO_LARGE", "SEGMENT_IS_DYNAMIC"],
});
