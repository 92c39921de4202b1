"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { SectionInput } from "@/lib/schemas/sections";

/** The organization's saved sections, newest first (the editor's menu shows the last 100). */
export function useSections(enabled = true) {
  return useQuery({
    queryKey: queryKeys.sections.options(),
    queryFn: async () => (await apiCall("GET /v1/sections", { query: { limit: 100 } })).data,
    enabled,
  });
}

export function useSaveSection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SectionInput) => apiCall("POST /v1/sections", { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sections.all() }),
  });
}

export function useDeleteSection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall("DELETE /v1/sections/{id}", { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sections.all() }),
  });
}
