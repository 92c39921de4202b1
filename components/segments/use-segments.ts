"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch, type ListEnvelope } from "@/lib/client/api";
import type { segment } from "@/lib/schemas/segments";

export type Segment = z.infer<typeof segment>;

export const segmentsKey = ["segments"] as const;

/** Every segment (the list is not paged without `limit`), newest first. */
export function useSegments() {
  return useQuery({
    queryKey: segmentsKey,
    queryFn: async () => (await apiFetch<ListEnvelope<Segment>>("/v1/segments")).data,
  });
}
