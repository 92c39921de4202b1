"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { contact } from "@/lib/schemas/contacts";

export type Contact = z.infer<typeof contact>;

/** Up to five contacts whose email matches, within a segment when one is given: "preview as" pickers. */
export function useContactSearch(search: string, segmentId: string | null) {
  const query = { limit: 5, offset: 0, search: search.trim(), segment_id: segmentId ?? "", subscribed: "", tags: "" };
  return useQuery({
    queryKey: queryKeys.contacts.page(query),
    queryFn: ({ signal }) => apiCall("GET /v1/contacts", { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The fields a placeholder can name: the contact's own and the metadata keys in use. */
export function useContactFields() {
  return useQuery({ queryKey: queryKeys.contacts.fields(), queryFn: () => apiCall("GET /v1/contact-fields"), staleTime: 60_000 });
}
