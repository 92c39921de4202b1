"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { inbox } from "@/lib/schemas/inboxes";

export type Inbox = z.infer<typeof inbox>;

/** Every inbox of the organization (GET /v1/inboxes is never paged): Settings and the sender pickers share it. */
export function useInboxes() {
  return useQuery({
    queryKey: queryKeys.inboxes.options(),
    queryFn: async () => (await apiCall("GET /v1/inboxes")).data,
  });
}
