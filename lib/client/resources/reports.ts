"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useCursorPager } from "@/lib/client/use-cursor-pager";
import type { RecipientEvent } from "@/lib/schemas/reports";

/** A broadcast's report; refreshed every 10 s while it is still sending. */
export function useBroadcastReport(id: string, live: boolean) {
  return useQuery({
    queryKey: queryKeys.broadcasts.report(id),
    queryFn: () => apiCall("GET /v1/broadcasts/{id}/report", { params: { id } }),
    refetchInterval: live ? 10_000 : false,
  });
}

/** The organization's rates over its broadcasts of the last 90 days: moves slowly, so it is kept a while. */
export function useBroadcastAverage() {
  return useQuery({
    queryKey: queryKeys.broadcasts.average(),
    queryFn: () => apiCall("GET /v1/reports/broadcast-average"),
    staleTime: 5 * 60_000,
  });
}

/** The dashboard's home: 30 days of sending, what is going out, warnings. */
export function useOrganizationOverview() {
  return useQuery({
    queryKey: queryKeys.overview(),
    queryFn: () => apiCall("GET /v1/reports/overview"),
    refetchInterval: 30_000,
  });
}

/** One page of the recipients with an event; the page on screen stays while the next one loads. */
export function useBroadcastRecipients(id: string, event: RecipientEvent, limit = 10) {
  const pager = useCursorPager(limit);
  const query = { event, ...pager.query };
  return {
    query: useQuery({
      queryKey: queryKeys.broadcasts.recipients(id, query),
      queryFn: () => apiCall("GET /v1/broadcasts/{id}/recipients", { params: { id }, query }),
      placeholderData: keepPreviousData,
    }),
    pager,
  };
}

/** Saves a recipient list as a new segment; the segment lists and pickers are refreshed. */
export function useSaveRecipientsSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { event: RecipientEvent; name?: string }) => apiCall("POST /v1/broadcasts/{id}/recipients/segment", { params: { id }, body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() }),
  });
}
