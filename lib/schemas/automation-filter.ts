import { z } from "zod";

/**
 * The seam between automations and the filter language of lib/audience (decisions.md, "Filters"),
 * which is being built beside them: until it lands, a filter is any JSON object of bounded size,
 * checked again when the audience module compiles it.
 */
const MAX_FILTER_JSON = 20_000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export type Filter = Record<string, unknown>;

export const automationFilter = z
  .custom<Filter>(isObject, { message: "must be a filter object: all, any, not, or a condition" })
  .refine((value) => JSON.stringify(value).length <= MAX_FILTER_JSON, `must be at most ${MAX_FILTER_JSON} characters as JSON`)
  .meta({ description: "A filter of the contacts list's language: `{ all }`, `{ any }`, `{ not }`, or a condition." });

/** Event names: 1..100 of letters, digits, `_ . : -` (decisions.md, "Events"). */
export const eventName = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be 1 to 100 letters, digits or _ . : -");
