"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { ContactPropertyRecord } from "@/lib/schemas/contact-properties";

export type ContactProperty = ContactPropertyRecord;

/** The organization's typed metadata keys (a short list, never paged): Settings, the editor's placeholders, the filter builder. */
export function useContactProperties() {
  return useQuery({
    queryKey: queryKeys.contactProperties.options(),
    queryFn: async () => (await apiCall("GET /v1/contact-properties")).data,
    staleTime: 30_000,
  });
}
