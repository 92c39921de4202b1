"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall, type QueryValue } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { suppression } from "@/lib/schemas/suppressions";

export type Suppression = z.infer<typeof suppression>;

/** One page of the suppression list, by reason and search; the page on screen stays while the next loads. */
export function useSuppressionPage(query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: queryKeys.suppressions.page(query),
    queryFn: () => apiCall("GET /v1/suppressions", { query }),
    placeholderData: keepPreviousData,
  });
}
