"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";

/** The caller's organization (GET /v1/organization): its settings, its brand and the caller's role. */
export function useOrganization() {
  return useQuery({ queryKey: queryKeys.organization(), queryFn: () => apiCall("GET /v1/organization") });
}
