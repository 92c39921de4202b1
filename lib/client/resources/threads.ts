"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { thread, threadSummary } from "@/lib/schemas/threads";

export type Thread = z.infer<typeof thread>;
export type ThreadSummary = z.infer<typeof threadSummary>;
export type ThreadCategory = ThreadSummary["category"];
export type InboxFilters = { category: string; inbox_id: string; broadcast_id: string };

const PAGE_SIZE = 25;

/**
 * The unified inbox: replied threads, newest activity first, a page at a time ("Load more" asks for
 * the one after the last thread shown). Refreshed every 30 s, as replies are polled every minute.
 */
export function useThreadInbox(filters: InboxFilters) {
  return useInfiniteQuery({
    queryKey: queryKeys.threads.inbox(filters),
    queryFn: ({ pageParam, signal }) => apiCall("GET /v1/threads", { query: { ...filters, limit: PAGE_SIZE, after: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    refetchInterval: 30_000,
  });
}

/** One thread with its emails and its shared draft. */
export function useThread(threadId: string) {
  return useQuery({ queryKey: queryKeys.threads.detail(threadId), queryFn: () => apiCall("GET /v1/threads/{threadId}", { params: { threadId } }) });
}
