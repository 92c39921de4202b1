import { z } from "zod";

/** Maximum lengths of string inputs, documented in the API reference. */
export const limits = {
  name: 200,
  subject: 998,
  email: 320,
  shortText: 1000,
  previewText: 500,
  html: 1_000_000,
  text: 1_000_000,
  url: 2048,
  tag: 50,
  tags: 20,
  metadataKey: 100,
  metadataValue: 10_000,
  metadataKeys: 50,
  /** Bytes of a contact's metadata as JSON. */
  metadataBytes: 16_384,
  comment: 20_000,
} as const;

const noNul = (value: string) => !value.includes("\u0000");
const NUL_MESSAGE = "must not contain NUL characters";

/** A string with a maximum length that PostgreSQL can store (no U+0000). */
export const text = (max: number) => z.string().max(max).refine(noNul, NUL_MESSAGE);

/** A required, non-empty string with a maximum length. */
export const requiredText = (max: number) => z.string().min(1).max(max).refine(noNul, NUL_MESSAGE);

/** UUID-shaped ids: any 8-4-4-4-12 hex string, as PostgreSQL's uuid type accepts. */
export const id = z.guid({ message: "must be a UUID" }).meta({ id: "Uuid" });

export const emailAddress = z.email({ message: "must be an email address" }).max(limits.email).meta({ id: "EmailAddress" });

/** Tags must already be lowercase: the API never rewrites them silently. */
export const tags = z
  .array(
    text(limits.tag)
      .min(1)
      .refine((tag) => tag === tag.toLowerCase(), "must be lowercase"),
  )
  .max(limits.tags);

// The schemas run in the dashboard too, where there is no Buffer.
const utf8 = new TextEncoder();

/** The size of metadata as the limit counts it: the bytes of its JSON. */
const metadataBytes = (value: object) => utf8.encode(JSON.stringify(value)).length;

// Capped as a whole too: a contact's metadata is read with it on every page of contacts and into its emails.
export const metadata = z
  .record(text(limits.metadataKey).min(1), z.union([text(limits.metadataValue), z.number(), z.boolean()]))
  .refine((value) => Object.keys(value).length <= limits.metadataKeys, `must have at most ${limits.metadataKeys} keys`)
  .refine((value) => metadataBytes(value) <= limits.metadataBytes, `must be at most ${limits.metadataBytes / 1024} KB as JSON`)
  .meta({ description: `At most ${limits.metadataKeys} keys and ${limits.metadataBytes / 1024} KB as JSON.` });

const yearOf = (value: string) => Number(value.slice(0, 4));

// PostgreSQL has no year 0, and dates this far out are typing mistakes; both used to end in a 500.
export const dateTime = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 date-time" })
  .refine((value) => yearOf(value) >= 1970 && yearOf(value) <= 9999, "must be a date between the years 1970 and 9999");
dateTime.register(z.globalRegistry, { id: "DateTime" });

export const successResponse = z.object({ success: z.boolean() }).meta({ id: "Success" });

export const idParams = z.object({ id });

/** A contact's identity: compared case-insensitively, without surrounding spaces. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
