"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { fetchAllPages } from "@/lib/client/fetch-all-pages";
import { queryKeys } from "@/lib/client/query-keys";
import { useCursorList } from "@/lib/client/use-cursor-list";
import type { template } from "@/lib/schemas/templates";

export type Template = z.infer<typeof template>;

/** Every template of the organization, for pickers (broadcasts, steps, the email filter). */
export function useAllTemplates() {
  return useQuery({ queryKey: queryKeys.templates.options(), queryFn: () => fetchAllPages("GET /v1/templates") });
}

/** One page of the templates list. */
export const useTemplatePage = (limit: number) => useCursorList(queryKeys.templates.list(), "GET /v1/templates", limit);

/** One template; not fetched without an id (a new template). */
export function useTemplate(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.templates.detail(id ?? ""),
    queryFn: () => apiCall("GET /v1/templates/{id}", { params: { id: id ?? "" } }),
    enabled: Boolean(id),
  });
}
