import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addBusinessDays, isWindowOpen, nextOpening, windowTimeZone, type SendingWindow } from "./sending-window";
import { canonicalTimeZone, localDateTime, zonedInstant } from "./time-zones";

const office: SendingWindow = { days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:00", timezone: "contact" };
const iso = (value: string) => new Date(value);

describe("time zones", () => {
  it("keeps canonical IANA names and refuses anything else", () => {
    expect(canonicalTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(canonicalTimeZone("asia/tokyo")).toBe("Asia/Tokyo");
    expect(canonicalTimeZone("America/New_York")).toBe("America/New_York");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    for (const bad of ["", "Mars/Olympus", "+05:00", "Asia/Tokyo; DROP", "x".repeat(65), "../etc/passwd"]) expect(canonicalTimeZone(bad)).toBeNull();
  });

  it("reads local times and turns them back into instants, across daylight saving changes", () => {
    expect(localDateTime(iso("2026-12-07T00:00:00Z"), "Asia/Tokyo")).toEqual({ year: 2026, month: 12, day: 7, timeMs: 9 * 3_600_000 });
    expect(zonedInstant({ year: 2026, month: 12, day: 7, timeMs: 9 * 3_600_000 }, "America/New_York").toISOString()).toBe("2026-12-07T14:00:00.000Z");
    expect(zonedInstant({ year: 2026, month: 7, day: 6, timeMs: 9 * 3_600_000 }, "America/New_York").toISOString()).toBe("2026-07-06T13:00:00.000Z");
    // 2026-03-08 02:30 does not exist in New York: read with the offset before the change (03:30 EDT).
    expect(zonedInstant({ year: 2026, month: 3, day: 8, timeMs: 2.5 * 3_600_000 }, "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
    // 2026-11-01 01:30 happens twice: the first (EDT).
    expect(zonedInstant({ year: 2026, month: 11, day: 1, timeMs: 1.5 * 3_600_000 }, "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  it("round-trips any instant of a zone without daylight saving", () => {
    fc.assert(
      fc.property(
        fc.date({ min: iso("2000-01-01T00:00:00Z"), max: iso("2040-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.constantFrom("Asia/Tokyo", "Asia/Kolkata", "UTC", "Asia/Kathmandu"),
        (at, zone) => zonedInstant(localDateTime(at, zone), zone).getTime() === at.getTime(),
      ),
    );
  });
});

describe("sending windows", () => {
  it("sends a Saturday's email at Monday 09:00 in each recipient's own zone", () => {
    const saturday = iso("2026-12-05T12:00:00Z");
    expect(nextOpening(office, "Asia/Tokyo", saturday)).toEqual({ start: iso("2026-12-07T00:00:00Z"), end: iso("2026-12-07T08:00:00Z") });
    expect(nextOpening(office, "America/New_York", saturday)).toEqual({ start: iso("2026-12-07T14:00:00Z"), end: iso("2026-12-07T22:00:00Z") });
  });

  it("answers the instant itself while the window is open, and the next day's opening once it has closed", () => {
    const tuesdayNoonTokyo = iso("2026-12-08T03:00:00Z");
    expect(nextOpening(office, "Asia/Tokyo", tuesdayNoonTokyo)).toEqual({ start: tuesdayNoonTokyo, end: iso("2026-12-08T08:00:00Z") });
    expect(isWindowOpen(office, "Asia/Tokyo", tuesdayNoonTokyo)).toBe(true);
    // 17:00 is closed: the end is not part of the window.
    expect(nextOpening(office, "Asia/Tokyo", iso("2026-12-08T08:00:00Z")).start).toEqual(iso("2026-12-09T00:00:00Z"));
    // Friday after hours waits for Monday.
    expect(nextOpening(office, "Asia/Tokyo", iso("2026-12-11T09:00:00Z")).start).toEqual(iso("2026-12-14T00:00:00Z"));
  });

  it("reads a fixed zone whatever the contact's, and the organization's when the contact has none", () => {
    expect(windowTimeZone({ timezone: "Europe/Berlin" }, { contact: "Asia/Tokyo", organization: "UTC" })).toBe("Europe/Berlin");
    expect(windowTimeZone(office, { contact: "Asia/Tokyo", organization: "UTC" })).toBe("Asia/Tokyo");
    expect(windowTimeZone(office, { contact: null, organization: "Europe/Paris" })).toBe("Europe/Paris");
    expect(windowTimeZone(null, { contact: null, organization: "Europe/Paris" })).toBe("Europe/Paris");
  });

  it("a window to 24:00 closes at midnight, and one day a week opens a week later", () => {
    const evenings: SendingWindow = { days: ["wed"], start: "18:00", end: "24:00", timezone: "UTC" };
    expect(nextOpening(evenings, "UTC", iso("2026-12-09T19:00:00Z"))).toEqual({ start: iso("2026-12-09T19:00:00Z"), end: iso("2026-12-10T00:00:00Z") });
    expect(nextOpening(evenings, "UTC", iso("2026-12-10T00:00:00Z")).start).toEqual(iso("2026-12-16T18:00:00Z"));
  });

  it("always answers an opening that is open, not before the instant, and no later than a week on", () => {
    const days = fc.uniqueArray(fc.constantFrom(...(["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const)), { minLength: 1, maxLength: 7 });
    const minutes = fc.integer({ min: 0, max: 24 * 60 - 1 });
    fc.assert(
      fc.property(
        days,
        minutes,
        minutes,
        fc.date({ min: iso("2020-01-01T00:00:00Z"), max: iso("2035-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.constantFrom("Asia/Tokyo", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "UTC"),
        (weekdays, a, b, at, zone) => {
          if (a === b) return;
          const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
          const window: SendingWindow = { days: weekdays, start: hhmm(Math.min(a, b)), end: hhmm(Math.max(a, b)), timezone: zone };
          const opening = nextOpening(window, zone, at);
          expect(opening.start.getTime()).toBeGreaterThanOrEqual(at.getTime());
          expect(opening.end.getTime()).toBeGreaterThan(opening.start.getTime());
          expect(opening.start.getTime() - at.getTime()).toBeLessThanOrEqual(8 * 86_400_000);
          expect(isWindowOpen(window, zone, opening.start)).toBe(true);
        },
      ),
    );
  });
});

describe("business days", () => {
  it("skips weekends at the same local time, and counts a weekend from Monday morning", () => {
    const fridayTokyo = iso("2026-12-11T02:00:00Z"); // 11:00 JST
    expect(addBusinessDays(fridayTokyo, 1, "Asia/Tokyo")).toEqual(iso("2026-12-14T02:00:00Z"));
    expect(addBusinessDays(fridayTokyo, 5, "Asia/Tokyo")).toEqual(iso("2026-12-18T02:00:00Z"));
    const saturdayNewYork = iso("2026-12-12T15:00:00Z"); // 10:00 EST
    expect(addBusinessDays(saturdayNewYork, 1, "America/New_York")).toEqual(iso("2026-12-15T05:00:00Z"));
    // The same instant is a Friday evening in New York and a Saturday morning in Tokyo.
    const instant = iso("2026-12-11T23:30:00Z");
    expect(addBusinessDays(instant, 1, "America/New_York")).toEqual(iso("2026-12-14T23:30:00Z"));
    expect(addBusinessDays(instant, 1, "Asia/Tokyo")).toEqual(iso("2026-12-14T15:00:00Z"));
  });

  it("is never earlier than the same number of days less an hour (what the step dispatcher counts on)", () => {
    fc.assert(
      fc.property(
        fc.date({ min: iso("2020-01-01T00:00:00Z"), max: iso("2035-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom("Asia/Tokyo", "America/New_York", "Europe/Berlin", "UTC"),
        (at, days, zone) => addBusinessDays(at, days, zone).getTime() >= at.getTime() + days * 86_400_000 - 3_600_000,
      ),
    );
  });
});
