import type { PropertyType } from "@/lib/schemas/filters";

export type MetadataValue = string | number | boolean;
type Checked = { ok: true; value: MetadataValue } | { ok: false; message: string };

// An ISO 8601 date, or a date-time with minutes at least; without an offset it is read as UTC.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
// Years the SQL side reads back as dates (lib/audience/sql-values.ts): four digits, not starting with 0.
const MIN_YEAR = 1000;

/**
 * A valid ISO date as stored: a date stays as written (`2026-03-01`, a birthday has no time zone),
 * a date-time becomes UTC with milliseconds, as every timestamp the API answers. `null` when the
 * text is not one, including dates the calendar lacks (`2026-02-30`).
 */
export function normalizeDate(text: string): string | null {
  const match = ISO.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < MIN_YEAR) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (h === undefined) return `${y}-${mo}-${d}`;
  const zone = normalizeOffset(offset);
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59 || zone === null) return null;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s ?? "00"}${fraction ? fraction.slice(0, 4) : ""}${zone}`;
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime()) || instant.getUTCFullYear() < MIN_YEAR || instant.getUTCFullYear() > 9999) return null;
  return instant.toISOString();
}

/** `Z`, or `±HH:MM` from `±HH`, `±HHMM` or `±HH:MM`; null past ±14:59. */
function normalizeOffset(offset: string | undefined): string | null {
  if (!offset || offset.toUpperCase() === "Z") return "Z";
  const digits = offset.slice(1).replace(":", "");
  if (Number(digits.slice(0, 2)) > 14 || Number(digits.slice(2) || 0) > 59) return null;
  return `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2) || "00"}`;
}

const typeName: Record<PropertyType, string> = { string: "a string", number: "a number", boolean: "true or false", date: "an ISO 8601 date" };

/** A value written through the API for a typed key: it must already be of the type (a date-time is normalized). */
export function checkPropertyValue(type: PropertyType, value: MetadataValue): Checked {
  const wrong = { ok: false as const, message: `must be ${typeName[type]} (the property is typed ${type})` };
  switch (type) {
    case "string":
      return typeof value === "string" ? { ok: true, value } : wrong;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? { ok: true, value } : wrong;
    case "boolean":
      return typeof value === "boolean" ? { ok: true, value } : wrong;
    case "date": {
      const date = typeof value === "string" ? normalizeDate(value) : null;
      return date === null
        ? { ok: false, message: `must be an ISO 8601 date such as 2026-03-01 or 2026-03-01T09:30:00Z (the property is typed date)` }
        : { ok: true, value: date };
    }
  }
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const TRUE = new Set(["true", "yes", "1"]);
const FALSE = new Set(["false", "no", "0"]);

/** A CSV cell for a typed key, converted: `"42"` → 42, yes/no/true/false/1/0, ISO dates. */
export function convertCell(type: PropertyType, cell: string): Checked {
  switch (type) {
    case "string":
      return { ok: true, value: cell };
    case "number": {
      const number = Number(cell);
      return NUMBER.test(cell) && Number.isFinite(number) ? { ok: true, value: number } : { ok: false, message: "must be a number" };
    }
    case "boolean": {
      const flag = cell.toLowerCase();
      if (TRUE.has(flag)) return { ok: true, value: true };
      if (FALSE.has(flag)) return { ok: true, value: false };
      return { ok: false, message: "must be true, false, yes, no, 1 or 0" };
    }
    case "date": {
      const date = normalizeDate(cell);
      return date === null ? { ok: false, message: "must be an ISO 8601 date (2026-03-01 or 2026-03-01T09:30:00Z)" } : { ok: true, value: date };
    }
  }
}
