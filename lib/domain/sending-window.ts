import { addDays, clockTimeMs, localDateTime, weekdayIndex, zonedInstant, type LocalDate } from "./time-zones";

/**
 * Sending windows and business days: pure functions of instants and IANA zones, shared by the
 * broadcast engine (lib/sending/windows.ts) and, once merged, the automations engine, so a
 * window means the same wherever it is used. Nothing here reads a clock: callers pass `at`.
 */

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `timezone: "contact"`: the recipient's own zone, else the organization's. */
export const CONTACT_TIME_ZONE = "contact";

export type SendingWindow = { days: Weekday[]; start: string; end: string; timezone: string };

/** An opening of a window: sending may start at `start` and must not start at or after `end`. */
export type Opening = { start: Date; end: Date };

/** The zone a window is read in for one recipient. */
export function windowTimeZone(window: Pick<SendingWindow, "timezone"> | null, zones: { contact: string | null; organization: string }): string {
  if (window && window.timezone !== CONTACT_TIME_ZONE) return window.timezone;
  return zones.contact ?? zones.organization;
}

const opensOn = (window: SendingWindow, date: LocalDate) => window.days.includes(WEEKDAYS[weekdayIndex(date)]);

/**
 * The opening that contains `at`, or else the first one after it; `start` is `at` itself when the
 * window is open then. The window's days and times are read in `timeZone` (a day whose opening
 * hour the clocks skip opens just after the change). A window always has a day, so one is found
 * within a week.
 */
export function nextOpening(window: SendingWindow, timeZone: string, at: Date): Opening {
  const today = localDateTime(at, timeZone);
  const startMs = clockTimeMs(window.start);
  const endMs = clockTimeMs(window.end);
  for (let offset = 0; offset <= 7; offset++) {
    const date = addDays(today, offset);
    if (!opensOn(window, date)) continue;
    const start = zonedInstant({ ...date, timeMs: startMs }, timeZone);
    const end = zonedInstant({ ...addDays(date, Math.floor(endMs / 86_400_000)), timeMs: endMs % 86_400_000 }, timeZone);
    if (at < end) return { start: at > start ? at : start, end };
  }
  throw new Error("A sending window needs at least one day");
}

/** Whether the window is open at `at`. */
export const isWindowOpen = (window: SendingWindow, timeZone: string, at: Date) => nextOpening(window, timeZone, at).start.getTime() === at.getTime();

const isBusinessDay = (date: LocalDate) => weekdayIndex(date) < 5;

/**
 * `at` plus `days` business days in the zone: the same local time of day that many Mondays to
 * Fridays later, so Friday 11:00 + 1 is Monday 11:00. Time on a weekend does not count: from a
 * Saturday, counting starts on Monday at 00:00 (+1 is Tuesday 00:00). Never earlier than `at`
 * plus `days` calendar days, which the step dispatcher relies on to find candidates.
 */
export function addBusinessDays(at: Date, days: number, timeZone: string): Date {
  const local = localDateTime(at, timeZone);
  let date: LocalDate = local;
  let timeMs = local.timeMs;
  if (!isBusinessDay(date)) {
    while (!isBusinessDay(date)) date = addDays(date, 1);
    timeMs = 0;
  }
  for (let counted = 0; counted < days;) {
    date = addDays(date, 1);
    if (isBusinessDay(date)) counted++;
  }
  const due = zonedInstant({ ...date, timeMs }, timeZone);
  return due < at ? at : due;
}
