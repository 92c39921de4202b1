"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchAllPages } from "@/lib/client/fetch-all-pages";
import { listTopicsContract } from "@/lib/contracts/topics";
import { queryKeys } from "@/lib/client/query-keys";

/** Every topic, for pickers. */
export function useTopics() {
  return useQuery({ queryKey: queryKeys.topics.options(), queryFn: () => fetchAllPages(listTopicsContract) });
}
