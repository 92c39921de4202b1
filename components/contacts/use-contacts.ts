"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";

export const contactsKey = queryKeys.contacts.all();

export type ContactFilters = { search: string; subscribed: "" | "true" | "false"; tags: string[]; segment_id: string };

/** One page of GET /v1/contacts with its filters. */
export function useContactPage(filters: ContactFilters, limit: number, offset: number) {
  const query = {
    limit,
    offset,
    search: filters.search.trim(),
    subscribed: filters.subscribed,
    tags: filters.tags.join(","),
    segment_id: filters.segment_id,
  };
  return useQuery({
    queryKey: queryKeys.contacts.page(query),
    queryFn: ({ signal }) => apiCall("GET /v1/contacts", { query, signal }),
    placeholderData: keepPreviousData,
  });
}
