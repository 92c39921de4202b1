import { z } from "zod";
import { dateTime, id } from "./common";
import { contactEmail } from "./contacts";
import { EVENT_NAME, RESERVED_EVENT_PREFIXES } from "./filter-language";

export const MAX_EVENTS_PER_BATCH = 1000;
/** Bytes of a custom event's properties as JSON: a purchase with its items fits, a file does not. */
const MAX_EVENT_PROPERTIES_BYTES = 32_768;
/** Nesting of a custom event's properties: deeper JSON is a mistake or an attack on the parser. */
const MAX_EVENT_PROPERTIES_DEPTH = 8;
/** An event may be dated a little ahead (clocks differ), not days: filters count events "within n days". */
const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;

const utf8 = new TextEncoder();

/** How deep a parsed JSON value nests (a scalar is 0). */
function depth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let most = 0;
  for (const child of Array.isArray(value) ? value : Object.values(value)) most = Math.max(most, depth(child));
  return 1 + most;
}

const eventName = z
  .string()
  .regex(EVENT_NAME, "must be 1 to 100 letters, digits, _ . : or -")
  .refine(
    (name) => !RESERVED_EVENT_PREFIXES.some((prefix) => name.toLowerCase().startsWith(prefix)),
    "must not start with email., contact. or automation.: those names are the platform's own events",
  )
  .meta({ description: "1 to 100 letters, digits, `_ . : -`; the prefixes `email.`, `contact.` and `automation.` are reserved.", example: "purchase" });

// One pass per check over a batch of a thousand: the values are JSON already (the body was
// parsed as JSON), so they are not validated node by node. PostgreSQL's jsonb cannot hold U+0000:
// a string with it would fail the insert (a 500).
const eventProperties = z
  .record(z.string().min(1).max(100), z.unknown())
  .superRefine((value, ctx) => {
    const json = JSON.stringify(value);
    if (json.includes("\\u0000")) ctx.addIssue({ code: "custom", message: "must not contain NUL characters" });
    // A character is at most 3 bytes in UTF-8 (4 for a pair of 2): encode only what could be too big.
    else if (json.length * 3 > MAX_EVENT_PROPERTIES_BYTES && utf8.encode(json).length > MAX_EVENT_PROPERTIES_BYTES) {
      ctx.addIssue({ code: "custom", message: `must be at most ${MAX_EVENT_PROPERTIES_BYTES / 1024} KB as JSON` });
    } else if (depth(value) > MAX_EVENT_PROPERTIES_DEPTH)
      ctx.addIssue({ code: "custom", message: `must not nest deeper than ${MAX_EVENT_PROPERTIES_DEPTH} levels` });
  })
  .meta({ description: `Any JSON object, at most ${MAX_EVENT_PROPERTIES_BYTES / 1024} KB and ${MAX_EVENT_PROPERTIES_DEPTH} levels deep.` });

export const customEventInput = z
  .object({
    name: eventName,
    email: contactEmail.optional().meta({ description: "The contact's email; an unknown one creates the contact (subscribed)." }),
    contact_id: id.optional().meta({ description: "The contact's id." }),
    properties: eventProperties.optional(),
    occurred_at: dateTime
      .refine((value) => Date.parse(value) <= Date.now() + MAX_FUTURE_MS, "must not be more than a day ahead")
      .optional()
      .meta({ description: "When it happened; now when not given. At most a day ahead." }),
  })
  .superRefine((event, ctx) => {
    if ((event.email === undefined) === (event.contact_id === undefined)) {
      ctx.addIssue({ code: "custom", path: ["email"], message: "give exactly one of email and contact_id" });
    }
  })
  .meta({ id: "EventInput" });
export type CustomEventInput = z.infer<typeof customEventInput>;

export const customEventBatchInput = z.object({
  events: z
    .array(customEventInput)
    .min(1)
    .max(MAX_EVENTS_PER_BATCH)
    .meta({ description: `1 to ${MAX_EVENTS_PER_BATCH} events, validated whole.` }),
});

export const recordedEvent = z.object({ id });
export const recordedEvents = z.object({ data: z.array(recordedEvent).meta({ description: "The events' ids, in input order." }) });

export const contactEvent = z.object({
  id,
  name: z.string().meta({ description: "A built-in event (`email.opened`, `contact.updated`, …) or a custom one." }),
  properties: z.record(z.string(), z.unknown()),
  occurred_at: dateTime,
  source: z.string().meta({ description: "Who recorded it: `api` for the events your application sent, else the part of the platform that did." }),
  email_id: id.nullable().meta({ description: "Extension: the email a built-in `email.*` event is about (null for custom events)." }),
});
