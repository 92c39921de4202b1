import { MAX_IN_VALUES, type Filter } from "@/lib/schemas/filter-language";
import type { ContactFilters } from "./contact-query";

/**
 * The list's filters as one filter of the filter language, for "select all matching": the same
 * contacts GET /v1/contacts answers for them (search in email or names, subscription, every tag,
 * the segment, the advanced filter), so a bulk action reaches exactly what the list shows.
 */
export function selectionFilter(filters: ContactFilters): Filter {
  const all: Filter[] = [];
  const search = filters.search.trim();
  if (search) all.push({ any: (["email", "first_name", "last_name"] as const).map((field) => ({ field, op: "contains" as const, value: search })) });
  if (filters.subscribed) all.push({ field: "subscribed", op: "eq", value: filters.subscribed === "true" });
  for (const tag of filters.tags) all.push({ field: "tags", op: "contains", value: tag.toLowerCase() });
  if (filters.segment_id) all.push({ in_segment: filters.segment_id });
  if (filters.filter) all.push(JSON.parse(filters.filter) as Filter);
  return { all };
}

/**
 * Ticked contacts as a filter of their addresses, for an export of them (the export takes the
 * list's query, which has no ids): `in` conditions of at most MAX_IN_VALUES addresses each.
 */
export function tickedFilter(emails: string[]): Filter {
  const any: Filter[] = [];
  for (let i = 0; i < emails.length; i += MAX_IN_VALUES) any.push({ field: "email", op: "in", value: emails.slice(i, i + MAX_IN_VALUES) });
  return { any };
}
