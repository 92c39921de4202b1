"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useCursorList } from "@/lib/client/use-cursor-list";
import type { broadcast } from "@/lib/schemas/broadcasts";
import type { sequenceStep } from "@/lib/schemas/steps";

export type Broadcast = z.infer<typeof broadcast>;
export type BroadcastStatus = Broadcast["status"];
export type SequenceStep = z.infer<typeof sequenceStep>;

/** One broadcast; polled while it sends, as its counters move. */
export function useBroadcast(id: string) {
  return useQuery({
    queryKey: queryKeys.broadcasts.detail(id),
    queryFn: () => apiCall("GET /v1/broadcasts/{id}", { params: { id } }),
    refetchInterval: (q) => (q.state.data?.status === "sending" ? 5000 : false),
  });
}

/** One page of the broadcasts list. */
export const useBroadcastPage = (limit: number) => useCursorList(queryKeys.broadcasts.list(), "GET /v1/broadcasts", limit);

/** Every broadcast, for pickers (the list is not paged without `limit`). */
export function useBroadcastOptions() {
  return useQuery({
    queryKey: queryKeys.broadcasts.options(),
    queryFn: async () => (await apiCall("GET /v1/broadcasts")).data,
  });
}

/** The first email (or a step) as the sender renders it for a contact, or for nobody in particular; fetched afresh when shown. */
export function useBroadcastPreview(id: string, { stepId, contactId }: { stepId?: string | null; contactId?: string | null }, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.broadcasts.preview(id, { step: stepId ?? null, contact: contactId ?? null }),
    queryFn: () => apiCall("GET /v1/broadcasts/{id}/preview", { params: { id }, query: { step_id: stepId, contact_id: contactId } }),
    enabled,
    staleTime: 0,
  });
}

/** The follow-up steps of a broadcast, in sequence order. */
export function useSteps(broadcastId: string) {
  return useQuery({
    queryKey: queryKeys.broadcasts.steps(broadcastId),
    queryFn: async () => (await apiCall("GET /v1/broadcasts/{broadcastId}/steps", { params: { broadcastId } })).data,
  });
}
