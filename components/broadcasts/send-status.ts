"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "@/lib/client/api";
import type { broadcastSendingStatus } from "@/lib/schemas/broadcast-sending";
import { queryKeys } from "@/lib/client/query-keys";
import type { Broadcast } from "./broadcast-types";

export type SendStatus = z.infer<typeof broadcastSendingStatus>;

/** GET /v1/broadcasts/{id}/status, polled every 2 s while the broadcast is sending. */
export function useSendStatus(broadcast: Broadcast) {
  return useQuery({
    queryKey: queryKeys.broadcasts.sendStatus(broadcast.id),
    queryFn: () => apiCall("GET /v1/broadcasts/{id}/status", { params: { id: broadcast.id } }),
    retry: false,
    refetchInterval: (query) => {
      if (query.state.error) return false;
      return query.state.data?.sending || broadcast.status === "sending" ? 2000 : false;
    },
  });
}
