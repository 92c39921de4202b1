import { z } from "zod";
import { dateTime, emailAddress, id, limits, metadata, tags, text } from "./common";
import { contactSegment } from "./contact-relations";
import { filterQueryParam } from "./filters";
import { timeZone } from "./sending-window";

/** A contact's email: surrounding spaces and case do not make a different contact. */
export const contactEmail = z.string().trim().toLowerCase().max(limits.email).pipe(emailAddress);

const personName = text(limits.name);

/** What an import flags in a valid address (lib/audience/address-flags.ts). */
export const addressFlags = ["disposable", "role"] as const;
export type AddressFlag = (typeof addressFlags)[number];

export const consentSources = ["form", "import", "api", "dashboard"] as const;
export type ConsentSource = (typeof consentSources)[number];

const consentRecord = z
  .object({
    source: z.enum(consentSources),
    at: dateTime,
    ip: z.string().optional().meta({ description: "The address the person subscribed from (forms)." }),
    form_id: id.optional(),
  })
  .meta({ id: "ConsentRecord", description: "One subscription of the contact: how, when and (for a form) from where." });
export type ConsentRecord = { source: ConsentSource; at: string; ip?: string; form_id?: string };

export const contact = z
  .object({
    id,
    organization_id: id,
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    subscribed: z.boolean(),
    unsubscribed_at: dateTime.nullable(),
    tags: z.array(z.string()),
    timezone: z
      .string()
      .nullable()
      .meta({ description: "Extension: the contact's IANA time zone; null: the organization's. Sending windows in `contact` zone use it." }),
    consent: z.array(consentRecord).meta({ description: "Each subscription, oldest first (the latest 50)." }),
    created_at: dateTime,
    updated_at: dateTime,
    suppression: z
      .object({ reason: z.string().meta({ description: "Why: a bounce, a complaint, an unsubscription or by hand." }), suppressed_at: dateTime })
      .nullable()
      .meta({ description: "Set when the address is suppressed: no email is sent to it (POST /v1/emails answers 422 RECIPIENT_SUPPRESSED)." }),
  })
  .meta({ id: "Contact", description: "A contact. Its email is stored lowercase and is unique in the organization." });
export type ContactRecord = z.infer<typeof contact>;

export const createContactInput = z.object({
  email: contactEmail.meta({ description: "Stored trimmed and lowercase; unique in the organization." }),
  first_name: personName.nullable().optional(),
  last_name: personName.nullable().optional(),
  subscribed: z.boolean().optional().meta({ description: "Defaults to true. false records `unsubscribed_at`." }),
  metadata: metadata.optional(),
  tags: tags.optional(),
  timezone: timeZone.nullable().optional().meta({ description: "An IANA time zone, such as `Asia/Tokyo`; null or omitted: the organization's." }),
});
createContactInput.register(z.globalRegistry, { id: "ContactInput" });
export type CreateContactInput = z.infer<typeof createContactInput>;

export const updateContactInput = z.object({
  email: contactEmail.optional(),
  first_name: personName.nullable().optional(),
  last_name: personName.nullable().optional(),
  subscribed: z.boolean().optional().meta({ description: "false records `unsubscribed_at` (once); true clears it." }),
  metadata: metadata.optional().meta({ description: "Replaces the whole metadata object." }),
  tags: tags.optional().meta({ description: "Replaces the tags." }),
  timezone: timeZone.nullable().optional().meta({ description: "An IANA time zone; null: the organization's." }),
});
export type UpdateContactInput = z.infer<typeof updateContactInput>;

export const MAX_BATCH = 10_000;

export const bulkContactsInput = z.object({
  contacts: z.array(createContactInput).min(1).max(MAX_BATCH).meta({ description: "1 to 10 000 contacts." }),
});
export type BulkContactsInput = z.infer<typeof bulkContactsInput>;

export const bulkContactsResult = z.object({
  imported: z.number().int().meta({ description: "Contacts created. Emails that already existed are left unchanged." }),
  total: z.number().int().meta({ description: "Elements received." }),
});

export const checkEmailsInput = z.object({
  emails: z.array(text(limits.email)).min(1).max(MAX_BATCH).meta({ description: "1 to 10 000 strings." }),
});
export type CheckEmailsInput = z.infer<typeof checkEmailsInput>;

export const checkEmailsResult = z.object({
  existing: z.array(z.string()).meta({ description: "Input strings, as given and in input order, naming a contact." }),
  missing: z.array(z.string()).meta({ description: "The other input strings." }),
});

export const listContactsQuery = z.object({
  subscribed: z.enum(["true", "false"]).optional().meta({ description: "Only subscribed (`true`) or unsubscribed (`false`) contacts." }),
  search: text(limits.shortText).optional().meta({ description: "Case-insensitive substring of the email, first name or last name." }),
  tags: text(limits.shortText).optional().meta({ description: "Comma-separated tags; a contact must carry all of them." }),
  segment_id: id.optional().meta({ description: "Only contacts in this segment." }),
  filter: filterQueryParam.optional().meta({
    description: "A filter of the filter language (as `POST /v1/segments` takes it), as URL-encoded JSON; combined with the other parameters by AND.",
  }),
});
export type ListContactsQuery = z.infer<typeof listContactsQuery>;

export const listContactsPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: "Page size, 1 to 100. Without it every matching contact is returned." }),
  offset: z.coerce.number().int().min(0).optional().meta({ description: "Matching contacts to skip, default 0." }),
});

export const contactList = z.object({
  contacts: z.array(contact),
  total: z.number().int().meta({ description: "Contacts matching the filters." }),
  limit: z.number().int().meta({ description: "The page size asked for; without `limit`, the number of contacts returned." }),
  offset: z.number().int(),
});

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
// Base64 makes 50 MB about 66.7 MB; the JSON around it needs a little more.
export const MAX_IMPORT_BODY_BYTES = 72 * 1024 * 1024;

export const columnMapping = z.object({
  csv_column: text(limits.shortText).min(1).meta({ description: "A header of the CSV file." }),
  property_name: text(limits.metadataKey).min(1).meta({
    description: "`email`, `first_name`, `last_name`, `subscribed`, `tags`, `timezone` (an IANA zone; extension), or any other name: a metadata key.",
  }),
});

export const importContactsInput = z.object({
  file_content: z
    .string()
    .max(MAX_IMPORT_BODY_BYTES)
    .meta({ description: "Base64 of a UTF-8 CSV file (BOM allowed; comma, semicolon or tab delimited) of at most 50 MB." }),
  column_mappings: z.array(columnMapping).min(1).max(500),
  handle_missing: z.enum(["create", "skip"]).meta({ description: "`create` adds emails not found in contacts; `skip` leaves them out." }),
  segment_id: id.optional().meta({ description: "Imported contacts (created and updated) are added to this segment." }),
  skip_flagged: z.array(z.enum(addressFlags)).max(addressFlags.length).optional().meta({
    description:
      "Extension: leave out the rows whose address is flagged so (see `flagged`): `disposable`, `role`. Without it flagged rows are imported, and listed.",
  }),
});
export type ImportContactsInput = z.infer<typeof importContactsInput>;
export type ColumnMapping = z.infer<typeof columnMapping>;

/** At most this many rejected rows are listed in an import's answer; `errors_total` counts them all. */
export const MAX_IMPORT_ERRORS = 1000;

export const importError = z.object({
  row: z.number().int().meta({ description: "The row as a spreadsheet shows it: the header is row 1." }),
  email: z.string().meta({ description: "The row's email cell as written, cut at 320 characters." }),
  error: z.string(),
});
export type ImportError = z.infer<typeof importError>;

const flaggedRow = z.object({
  row: z.number().int(),
  email: z.string(),
  flags: z.array(z.enum(addressFlags)),
  skipped: z.boolean().meta({ description: "Left out, as `skip_flagged` asked." }),
});

const importFlags = z
  .object({
    invalid: z.number().int().meta({ description: "Rows whose email is missing or not a valid address (each is in `errors`)." }),
    disposable: z.number().int().meta({ description: "Rows of a throwaway mailbox's domain (mailinator.com, …)." }),
    role: z.number().int().meta({ description: "Rows of a function's mailbox rather than a person's (info@, sales@, …)." }),
    skipped: z.number().int().meta({ description: "Flagged rows left out, as `skip_flagged` asked (also counted in `skipped`)." }),
    rows: z.array(flaggedRow).meta({ description: "The first 1 000 flagged rows, in row order." }),
  })
  .meta({ id: "ImportFlags", description: "Extension: the file's address hygiene." });

export const importContactsResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int().meta({ description: "Rows left out: invalid, repeated, flagged with `skip_flagged`, or missing with `handle_missing: skip`." }),
  errors: z.array(importError).meta({ description: "The first 1 000 rejected rows, in row order." }),
  errors_total: z.number().int().meta({ description: "Extension: every rejected row, listed in `errors` or not." }),
  flagged: importFlags,
});
export type ImportContactsResult = z.infer<typeof importContactsResult>;

const row = z.record(z.string(), z.unknown());

export const contactExport = z
  .object({
    contact,
    topics: z.array(z.object({ topic_id: id, name: z.string(), subscribed: z.boolean() })),
    segments: z.array(contactSegment).meta({ description: "As `GET /v1/contacts/{id}/segments` lists them: static ones and the dynamic ones it matches now." }),
    form_submissions: z.array(row).meta({ description: "`form_id`, `values`, `ip`, `created_at`, `confirmed_at`." }),
    events: z.array(row).meta({ description: "`id`, `name`, `properties`, `source`, `occurred_at`, newest first." }),
    emails: z.array(row).meta({ description: "`id`, `broadcast_id`, `from_email`, `to_email`, `subject`, `status` and its times, newest first." }),
    truncated: z.boolean().meta({ description: "Events or emails past the newest 10 000 were left out." }),
  })
  .meta({ id: "ContactExport" });

export const deleteContactQuery = z.object({
  erase: z.enum(["true", "false"]).optional().meta({ description: "`true` also erases the address and names from its emails and events (kept, as counts)." }),
});
