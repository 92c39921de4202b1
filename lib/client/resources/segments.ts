"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { segment } from "@/lib/schemas/segments";

export type Segment = z.infer<typeof segment>;

/** Every segment (the list is not paged without `limit`), newest first. */
export function useSegments() {
  return useQuery({
    queryKey: queryKeys.segments.options(),
    queryFn: async () => (await apiCall("GET /v1/segments")).data,
  });
}
