"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, type ListEnvelope } from "./api";
import { useCursorPager } from "./use-cursor-pager";

/**
 * One page of a cursor-paginated /v1 list and its previous/next state; the page on screen stays
 * while the next one loads. The query key is `[...queryKey, pager.query]`, so invalidating
 * `queryKey` refreshes every page.
 */
export function useCursorList<T extends { id: string }>(queryKey: readonly unknown[], path: string, limit: number) {
  const pager = useCursorPager(limit);
  const query = useQuery({
    queryKey: [...queryKey, pager.query],
    queryFn: () => apiFetch<ListEnvelope<T>>(path, { query: pager.query }),
    placeholderData: keepPreviousData,
  });
  return { query, pager };
}
