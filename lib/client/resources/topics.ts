"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchAllPages } from "@/lib/client/fetch-all-pages";
import { queryKeys } from "@/lib/client/query-keys";
import type { ItemOf } from "@/lib/client/use-cursor-list";

export type Topic = ItemOf<"GET /v1/topics">;

/** Every topic, for pickers and the Topics screen. */
export function useTopics() {
  return useQuery({ queryKey: queryKeys.topics.options(), queryFn: () => fetchAllPages("GET /v1/topics") });
}
