"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Route } from "@/lib/contracts";
import type { ListEnvelope } from "@/lib/schemas/pagination";
import { apiCall, type CallInput, type ResponseOf } from "./api";
import type { ContractOf } from "@/lib/contracts";
import { useCursorPager } from "./use-cursor-pager";

/** A route whose answer is a cursor list of records with ids. */
export type ListRoute = { [R in Route]: ResponseOf<R> extends ListEnvelope<{ id: string }> ? R : never }[Route];

/** One record of what a list route answers. */
export type ItemOf<R extends ListRoute> = ResponseOf<R> extends ListEnvelope<infer T extends { id: string }> ? T : never;

/**
 * One page of a cursor-paginated /v1 list and its previous/next state; the page on screen stays
 * while the next one loads. The query key is `[...queryKey, pager.query]`, so invalidating
 * `queryKey` refreshes every page.
 */
export function useCursorList<R extends ListRoute>(queryKey: readonly unknown[], route: R, limit: number, params?: CallInput<ContractOf<R>>["params"]) {
  const pager = useCursorPager(limit);
  const query = useQuery({
    queryKey: [...queryKey, pager.query],
    queryFn: () => apiCall(route, { params, query: pager.query }) as Promise<ListEnvelope<ItemOf<R>>>,
    placeholderData: keepPreviousData,
  });
  return { query, pager };
}
