"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { fetchAllPages } from "@/lib/client/fetch-all-pages";
import { queryKeys } from "@/lib/client/query-keys";
import type { ItemOf } from "@/lib/client/use-cursor-list";

export type FormRecord = ItemOf<"GET /v1/forms">;

/** Every form of the organization, for the Forms screen. */
export function useForms() {
  return useQuery({ queryKey: queryKeys.forms.options(), queryFn: () => fetchAllPages("GET /v1/forms") });
}

export function useForm(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.forms.detail(id ?? ""),
    queryFn: () => apiCall("GET /v1/forms/{id}", { params: { id: id! } }),
    enabled: Boolean(id),
  });
}
