"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useCursorList } from "@/lib/client/use-cursor-list";
import type { automation, automationRun } from "@/lib/schemas/automations";

export type Automation = z.infer<typeof automation>;
export type AutomationRun = z.infer<typeof automationRun>;

/** One page of the automations list. */
export const useAutomationPage = (limit: number) => useCursorList(queryKeys.automations.list(), "GET /v1/automations", limit);

/** One automation with its counts; refreshed every few seconds while it runs, as contacts move through it. */
export function useAutomation(id: string) {
  return useQuery({
    queryKey: queryKeys.automations.detail(id),
    queryFn: () => apiCall("GET /v1/automations/{id}", { params: { id } }),
    refetchInterval: (q) => (q.state.data?.status === "active" ? 5000 : false),
  });
}

/** The newest runs of an automation, or one contact's. */
export function useAutomationRuns(id: string, contactId: string | null) {
  const query = { limit: 50, ...(contactId ? { contact_id: contactId } : {}) };
  return useQuery({
    queryKey: queryKeys.automations.runs(id, query),
    queryFn: () => apiCall("GET /v1/automations/{id}/runs", { params: { id }, query }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}
