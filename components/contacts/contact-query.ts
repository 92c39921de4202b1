// Pure, so that the page's server component builds the same query as the list (use-contacts.ts).

export const CONTACTS_PAGE_SIZE = 25;

/** `filter`: the advanced filter as the filter language's JSON, "" for none. */
export type ContactFilters = { search: string; subscribed: "" | "true" | "false"; tags: string[]; segment_id: string; filter: string };

/** The filters as GET /v1/contacts (and the CSV export) take them. */
export const contactFilterQuery = (filters: ContactFilters) => ({
  search: filters.search.trim(),
  subscribed: filters.subscribed,
  tags: filters.tags.join(","),
  segment_id: filters.segment_id,
  filter: filters.filter,
});

/** The GET /v1/contacts query of one page of the list. */
export const contactPageQuery = (filters: ContactFilters, limit: number, offset: number) => ({ limit, offset, ...contactFilterQuery(filters) });
