"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { fetchAllPages } from "@/lib/client/fetch-all-pages";
import { queryKeys } from "@/lib/client/query-keys";
import type { topic } from "@/lib/schemas/topics";

export type Topic = z.infer<typeof topic>;

/** Every topic, for pickers. */
export function useTopics() {
  return useQuery({ queryKey: queryKeys.topics.options(), queryFn: () => fetchAllPages<Topic>("/v1/topics") });
}
