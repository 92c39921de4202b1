import { describe, expect, it } from "vitest";
import { checkPropertyValue, convertCell, normalizeDate } from "./property-values";

describe("typed property values", () => {
  it("keeps a date as written and writes a date-time in UTC with milliseconds; refuses what the calendar lacks", () => {
    expect(normalizeDate("2026-03-01")).toBe("2026-03-01");
    expect(normalizeDate("2024-02-29")).toBe("2024-02-29");
    expect(normalizeDate("2026-03-01T10:00:00+02:00")).toBe("2026-03-01T08:00:00.000Z");
    expect(normalizeDate("2026-03-01T10:00Z")).toBe("2026-03-01T10:00:00.000Z");
    expect(normalizeDate("2026-03-01 10:00:30.5")).toBe("2026-03-01T10:00:30.500Z");
    expect(normalizeDate("2026-03-01T10:00:00-0530")).toBe("2026-03-01T15:30:00.000Z");
    for (const bad of [
      "2026-02-29",
      "2026-13-01",
      "2026-00-10",
      "0999-01-01",
      "2026-03-01T24:00",
      "2026-03-01T10:60",
      "2026-03-01T10:00+15:00",
      "01/03/2026",
      "2026-3-1",
      "",
    ]) {
      expect(normalizeDate(bad), bad).toBeNull();
    }
  });

  it("takes API values only of the property's type", () => {
    expect(checkPropertyValue("number", 42)).toEqual({ ok: true, value: 42 });
    expect(checkPropertyValue("number", "42").ok).toBe(false);
    expect(checkPropertyValue("boolean", true)).toEqual({ ok: true, value: true });
    expect(checkPropertyValue("boolean", "true").ok).toBe(false);
    expect(checkPropertyValue("string", 5).ok).toBe(false);
    expect(checkPropertyValue("date", "2026-03-01T10:00:00+01:00")).toEqual({ ok: true, value: "2026-03-01T09:00:00.000Z" });
    expect(checkPropertyValue("date", 20260301).ok).toBe(false);
  });

  it("converts CSV cells: numbers, yes/no/true/false/1/0, ISO dates", () => {
    expect(convertCell("number", "42")).toEqual({ ok: true, value: 42 });
    expect(convertCell("number", "-3.5e2")).toEqual({ ok: true, value: -350 });
    expect(convertCell("number", "4 2").ok).toBe(false);
    expect(convertCell("number", "0x10").ok).toBe(false);
    expect(convertCell("number", "Infinity").ok).toBe(false);
    for (const [cell, value] of [
      ["yes", true],
      ["TRUE", true],
      ["1", true],
      ["No", false],
      ["false", false],
      ["0", false],
    ] as const) {
      expect(convertCell("boolean", cell), cell).toEqual({ ok: true, value });
    }
    expect(convertCell("boolean", "maybe").ok).toBe(false);
    expect(convertCell("date", "2026-03-01")).toEqual({ ok: true, value: "2026-03-01" });
    expect(convertCell("date", "1/3/2026").ok).toBe(false);
    expect(convertCell("string", "42")).toEqual({ ok: true, value: "42" });
  });
});
