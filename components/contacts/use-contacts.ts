"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { firstPageRows, type FirstPage } from "@/lib/client/first-page";
import { queryKeys } from "@/lib/client/query-keys";
import type { ContactRecord } from "@/lib/schemas/contacts";
import { contactPageQuery, type ContactFilters } from "./contact-query";

export const contactsKey = queryKeys.contacts.all();

/**
 * One page of GET /v1/contacts with its filters, and the rows to show: its answer's, or until it
 * comes, the page's server-rendered `first` rows when they answer the same query.
 */
export function useContactPage(filters: ContactFilters, limit: number, offset: number, first?: FirstPage<ContactRecord>) {
  const query = contactPageQuery(filters, limit, offset);
  const result = useQuery({
    queryKey: queryKeys.contacts.page(query),
    queryFn: ({ signal }) => apiCall("GET /v1/contacts", { query, signal }),
    placeholderData: keepPreviousData,
  });
  const served = firstPageRows(first, query, result.data !== undefined);
  return { query: result, rows: result.data?.contacts ?? served ?? [], served: served !== undefined };
}
