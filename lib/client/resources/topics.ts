"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchAllPages } from "@/lib/client/fetch-all-pages";
import { queryKeys } from "@/lib/client/query-keys";

/** Every topic, for pickers. */
export function useTopics() {
  return useQuery({ queryKey: queryKeys.topics.options(), queryFn: () => fetchAllPages("GET /v1/topics") });
}
