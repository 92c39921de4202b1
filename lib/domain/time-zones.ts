/**
 * IANA time zones and wall-clock arithmetic on the runtime's own zone data (ICU, through Intl),
 * with no library: the sending windows, business days and out-of-office return dates need only
 * "what is the local date and time at this instant" and its inverse. Pure: runs in the browser,
 * the server and the worker alike.
 */

/** A local calendar date; `month` is 1..12. */
export type LocalDate = { year: number; month: number; day: number };
/** A local date with the time of day in milliseconds since local midnight. */
export type LocalDateTime = LocalDate & { timeMs: number };

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/**
 * The zone's canonical name ("asia/tokyo" → "Asia/Tokyo", "US/Eastern" → "America/New_York"), or
 * null when the runtime does not know it. Only canonical names are stored, so every part of the
 * platform (and PostgreSQL, which has the same IANA data) reads one spelling.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!name || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return null;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    // Etc/Unknown and raw offsets are not zones a person lives in.
    return resolved && resolved !== "Etc/Unknown" && /^[A-Za-z]/.test(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

/** The local date and time at `at` in the zone. */
export function localDateTime(at: Date, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const ms = ((at.getTime() % 1000) + 1000) % 1000;
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    timeMs: ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000 + ms,
  };
}

/** The wall-clock reading of a local date-time as if it were UTC: what offsets are measured against. */
const wallMs = (local: LocalDateTime) => Date.UTC(local.year, local.month - 1, local.day) + local.timeMs;

/** The zone's offset from UTC at `atMs`, in milliseconds (east positive). */
function offsetAt(atMs: number, timeZone: string): number {
  return wallMs(localDateTime(new Date(atMs), timeZone)) - atMs;
}

/**
 * The instant of a local date-time in the zone. A time the clocks skip (the spring gap) is read
 * with the offset before the change, so it lands as far after the gap as it was into it; a time
 * that happens twice (the autumn overlap) is its first occurrence — as Temporal's "compatible".
 */
export function zonedInstant(local: LocalDateTime, timeZone: string): Date {
  const wall = wallMs(local);
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const candidates = [wall - before, wall - after].filter((t) => wallMs(localDateTime(new Date(t), timeZone)) === wall);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  return new Date(wall - before);
}

/** `date` moved by `days` calendar days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(date: LocalDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

/** "HH:MM" to milliseconds since midnight ("24:00" is the end of the day). */
export const clockTimeMs = (value: string) => (Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5))) * MINUTE;
