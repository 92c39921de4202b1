import { Prisma } from "@/lib/db";

/**
 * A contact's metadata value read with a type, as SQL on `c`. Each reader answers NULL for a value
 * that is not of the type — a legacy "n/a" under a key typed number later, a date the calendar
 * lacks — instead of letting a cast throw: a filter a client sends must never make the query fail.
 * The guards run before the cast (nested CASE, whose branches PostgreSQL evaluates in order).
 */

const metadataJson = (key: string) => Prisma.sql`(c.metadata -> ${key}::text)`;
export const metadataText = (key: string) => Prisma.sql`(c.metadata ->> ${key}::text)`;

// Bounded digits: a longer string could overflow numeric ("1e999999" is refused by the pattern).
const NUMERIC_TEXT = "^\\s*[-+]?[0-9]{1,30}(\\.[0-9]{1,30})?\\s*$";

/** A JSON number as numeric; a string holding a plain decimal (written before the key was typed) too. */
export const metadataNumber = (key: string) => Prisma.sql`(CASE jsonb_typeof(${metadataJson(key)})
  WHEN 'number' THEN ${metadataJson(key)}::numeric
  WHEN 'string' THEN CASE WHEN ${metadataText(key)} ~ ${NUMERIC_TEXT} THEN ${metadataText(key)}::numeric END END)`;

/** A JSON boolean; the strings "true" and "false" too. */
export const metadataBoolean = (key: string) => Prisma.sql`(CASE jsonb_typeof(${metadataJson(key)})
  WHEN 'boolean' THEN ${metadataJson(key)}::boolean
  WHEN 'string' THEN CASE lower(${metadataText(key)}) WHEN 'true' THEN true WHEN 'false' THEN false END END)`;

// What property-values.ts stores (a date, or a date-time with an offset) and what else ISO 8601
// writes, with every field in its range; the day is checked against its month below.
const DATE_TEXT =
  "^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])" +
  "([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,6})?)?(Z|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?)?$";
const WITH_OFFSET = "(Z|[+-][0-9]{2}(:?[0-9]{2})?)$";

/**
 * A date as timestamptz: a date alone is midnight UTC, a date-time without an offset is UTC (never
 * the session's time zone). February 30th passes the pattern and fails the month's length.
 */
function textAsTimestamp(text: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${text} ~ ${DATE_TEXT} THEN
    CASE WHEN substr(${text}, 9, 2)::int <= extract(day FROM make_date(substr(${text}, 1, 4)::int, substr(${text}, 6, 2)::int, 1) + interval '1 month' - interval '1 day')
      THEN CASE WHEN length(${text}) > 10 AND ${text} ~ ${WITH_OFFSET} THEN ${text}::timestamptz
        ELSE ${text}::timestamp AT TIME ZONE 'UTC' END END END)`;
}

export const metadataDate = (key: string) => textAsTimestamp(metadataText(key));

// LIKE's own wildcards in a value are matched literally.
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);
export const containsPattern = (value: string) => `%${escapeLike(value)}%`;
export const prefixPattern = (value: string) => `${escapeLike(value)}%`;
