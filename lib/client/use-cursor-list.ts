"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { Contract } from "@/lib/contracts/contract";
import type { ListEnvelope } from "@/lib/schemas/pagination";
import { apiCall, type CallInput } from "./api";
import { useCursorPager } from "./use-cursor-pager";

/** A contract whose answer is a cursor list of records with ids. */
export type ListContract = Contract & { response: z.ZodType<ListEnvelope<{ id: string }>> };

/** One record of what a list contract answers. */
export type ItemOf<C extends ListContract> = z.output<C["response"]>["data"][number];

/**
 * One page of a cursor-paginated /v1 list and its previous/next state; the page on screen stays
 * while the next one loads. The query key is `[...queryKey, pager.query]`, so invalidating
 * `queryKey` refreshes every page.
 */
export function useCursorList<C extends ListContract>(queryKey: readonly unknown[], contract: C, limit: number, params?: CallInput<C>["params"]) {
  const pager = useCursorPager(limit);
  const query = useQuery({
    queryKey: [...queryKey, pager.query],
    queryFn: () => apiCall(contract, { params, query: pager.query }) as Promise<ListEnvelope<ItemOf<C>>>,
    placeholderData: keepPreviousData,
  });
  return { query, pager };
}
