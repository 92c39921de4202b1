"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";

/** One delivery of a webhook with its log (the body sent, each attempt's request and answer). */
export function useWebhookDelivery(webhookId: string, deliveryId: string | null) {
  return useQuery({
    queryKey: queryKeys.webhooks.delivery(webhookId, deliveryId ?? ""),
    queryFn: () => apiCall("GET /v1/webhooks/{id}/deliveries/{deliveryId}", { params: { id: webhookId, deliveryId: deliveryId! } }),
    enabled: deliveryId !== null,
  });
}
