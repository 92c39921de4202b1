import { z } from "zod";
import { dateTime, id, limits, text } from "./common";
import { CONTACT_FIELD_KINDS, PROPERTY_TYPES } from "./filters";

/** An organization keeps at most this many typed properties (a contact holds at most 50 metadata keys). */
export const MAX_CONTACT_PROPERTIES = 100;

const PROPERTY_KEY = /^[a-z][a-z0-9_]{0,49}$/;

/** Keys that name a contact's own field cannot be metadata keys too: a filter or placeholder would be ambiguous. */
const RESERVED_PROPERTY_KEYS = Object.keys(CONTACT_FIELD_KINDS);

const propertyType = z.enum(PROPERTY_TYPES).meta({
  description:
    "`string`, `number`, `boolean` or `date` (an ISO 8601 date `2026-03-01` or date-time with offset, stored as written for a date " +
    "and in UTC with milliseconds for a date-time).",
  id: "ContactPropertyType",
});

export const createContactPropertyInput = z.object({
  key: z
    .string()
    .regex(PROPERTY_KEY, "must start with a lowercase letter, then up to 49 lowercase letters, digits or _")
    .refine((key) => !RESERVED_PROPERTY_KEYS.includes(key), "is a contact field, not a metadata key")
    .meta({ description: "The metadata key, `^[a-z][a-z0-9_]{0,49}$`; not a contact field (email, first_name, …)." }),
  label: text(limits.name).trim().min(1).optional().meta({ description: "How the dashboard names it; defaults to the key." }),
  type: propertyType,
});
export type CreateContactPropertyInput = z.infer<typeof createContactPropertyInput>;

export const contactProperty = z.object({
  id,
  key: z.string(),
  label: z.string(),
  type: propertyType,
  created_at: dateTime,
});
contactProperty.register(z.globalRegistry, { id: "ContactProperty" });
export type ContactPropertyRecord = z.infer<typeof contactProperty>;
