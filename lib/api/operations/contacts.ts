import { defineOperation } from "@/lib/api/operation";
import { parseLimit, parseNonNegative } from "@/lib/api/pagination";
import { importContacts } from "@/lib/services/contact-import";
import { spoolBase64Csv } from "@/lib/services/csv-upload";
import { eraseContact } from "@/lib/services/contact-erasure";
import { bulkCreateContacts, checkEmails, createContact, deleteContact, getContact, updateContact } from "@/lib/services/contacts";
import { listContacts, type ContactsPage } from "@/lib/services/contacts-list";
import {
  listContactsContract,
  createContactContract,
  getContactContract,
  updateContactContract,
  deleteContactContract,
  bulkCreateContactsContract,
  checkEmailsContract,
  importContactsContract,
} from "@/lib/contracts/contacts";

const parseContactsPage = (search: URLSearchParams): ContactsPage => ({
  limit: parseLimit(search.get("limit")),
  offset: parseNonNegative("offset", search.get("offset")) ?? 0,
});

export const listContactsOperation = defineOperation({
  ...listContactsContract,
  page: parseContactsPage,
  handler: (ctx, { query, page }) => listContacts(ctx, query, page),
});

export const createContactOperation = defineOperation({
  ...createContactContract,
  handler: (ctx, { body }) => createContact(ctx, body),
});

export const getContactOperation = defineOperation({
  ...getContactContract,
  handler: (ctx, { params }) => getContact(ctx, params.id),
});

export const updateContactOperation = defineOperation({
  ...updateContactContract,
  handler: (ctx, { params, body }) => updateContact(ctx, params.id, body),
});

export const deleteContactOperation = defineOperation({
  ...deleteContactContract,
  handler: (ctx, { params, query }) => (query.erase === "true" ? eraseContact(ctx, params.id) : deleteContact(ctx, params.id)),
});

export const bulkCreateContactsOperation = defineOperation({
  ...bulkCreateContactsContract,
  handler: (ctx, { body }) => bulkCreateContacts(ctx, body),
});

export const checkEmailsOperation = defineOperation({
  ...checkEmailsContract,
  handler: (ctx, { body }) => checkEmails(ctx, body),
});

export const importContactsOperation = defineOperation({
  ...importContactsContract,
  spooledField: { name: "file_content", spool: (text) => spoolBase64Csv(text) },
  handler: (ctx, { body, spooled }) => importContacts(ctx, body, spooled),
});

export const contactsOperations = [
  listContactsOperation,
  createContactOperation,
  bulkCreateContactsOperation,
  checkEmailsOperation,
  importContactsOperation,
  getContactOperation,
  updateContactOperation,
  deleteContactOperation,
];
