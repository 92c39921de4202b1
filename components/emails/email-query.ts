// Pure, so that the page's server component builds the same query as the list (emails-list.tsx).

const EMAILS_PAGE_SIZE = 25;

export type EmailFilters = { to: string; domain: string; status: string; broadcast_id: string; template_id: string };

/** The filters a link sets in the URL (`/emails?broadcast_id=…`), where the list starts from. */
export const emailFiltersFromUrl = (get: (name: keyof EmailFilters) => string | null | undefined): EmailFilters => ({
  to: get("to") ?? "",
  domain: get("domain") ?? "",
  status: get("status") ?? "",
  broadcast_id: get("broadcast_id") ?? "",
  template_id: get("template_id") ?? "",
});

/** The GET /v1/emails query (page mode) of one page of the list. */
export const emailPageQuery = (filters: EmailFilters, page: number) => ({
  page,
  limit: EMAILS_PAGE_SIZE,
  ...filters,
  to: filters.to.trim(),
  domain: filters.domain.trim(),
});
