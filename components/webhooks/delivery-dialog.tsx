"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDateTime } from "@/components/ui/date";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useWebhookDelivery } from "@/lib/client/resources/webhooks";
import { Code, DeliveryAttempt } from "./delivery-attempt";
import { outcomeOf, type WebhookDeliveryDetail } from "./webhook-types";

// The body is the JSON the server signed; shown indented, copied as sent.
const pretty = (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="mt-0.5 text-[13px] text-zinc-900">{children}</dd>
    </div>
  );
}

function DeliveryLog({ delivery }: { delivery: WebhookDeliveryDetail }) {
  return (
    <div className="flex flex-col gap-5">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Fact label="Status">
          <StatusBadge status={delivery.status} />
        </Fact>
        <Fact label="Attempts">{delivery.attempts}</Fact>
        <Fact label="Last response">{delivery.response_status ?? "—"}</Fact>
        <Fact label="Duration">{delivery.duration_ms === null ? "—" : `${delivery.duration_ms} ms`}</Fact>
        <Fact label="Created">{formatDateTime(delivery.created_at)}</Fact>
        <Fact label={delivery.status === "pending" ? "Next retry" : "Delivered"}>
          {formatDateTime(delivery.status === "pending" ? delivery.next_attempt_at : delivery.delivered_at)}
        </Fact>
      </dl>
      <section className="flex flex-col gap-1.5">
        <div className="flex items-center justify-between">
          <h3 className="text-sm font-semibold text-zinc-800">Request body</h3>
          <CopyButton value={delivery.request_body} what="request body" size="sm" />
        </div>
        <Code label="Request body">{pretty(delivery.request_body)}</Code>
      </section>
      <section className="flex flex-col gap-2" aria-label="Attempts">
        <h3 className="text-sm font-semibold text-zinc-800">Attempts</h3>
        {delivery.attempt_log.length === 0 ? (
          <p className="text-[13px] text-zinc-500">{delivery.attempts > 0 ? "Not logged: made before the delivery log existed." : "Not tried yet."}</p>
        ) : (
          delivery.attempt_log.map((attempt, i) => <DeliveryAttempt key={attempt.id} attempt={attempt} open={i === 0} />)
        )}
      </section>
    </div>
  );
}

type DeliveryDialogProps = { webhookId: string; webhookActive: boolean; deliveryId: string | null; onClose: () => void };

/** One delivery's log (the body sent, each attempt's request and answer) and "Replay". */
export function DeliveryDialog({ webhookId, webhookActive, deliveryId, onClose }: DeliveryDialogProps) {
  const queryClient = useQueryClient();
  const delivery = useWebhookDelivery(webhookId, deliveryId);
  const replay = useMutation({
    mutationFn: (id: string) => apiCall("POST /v1/webhooks/{id}/deliveries/{deliveryId}/replay", { params: { id: webhookId, deliveryId: id } }),
    onSuccess: async (replayed) => {
      queryClient.setQueryData(queryKeys.webhooks.delivery(webhookId, replayed.id), replayed);
      const last = replayed.attempt_log[0];
      if (last?.succeeded) toast.success("Delivered again", outcomeOf(replayed));
      else toast.error(new Error(outcomeOf(replayed)), "The endpoint did not accept the replay");
      await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(webhookId) });
    },
    onError: (error) => toast.error(error, "Could not replay the delivery"),
  });
  const data = delivery.data;

  return (
    <Dialog
      open={deliveryId !== null}
      onOpenChange={(open) => !open && onClose()}
      size="xl"
      title={data ? `Delivery of ${data.event_type}` : "Delivery"}
      description={deliveryId ? `webhook-id ${deliveryId}` : undefined}
      footer={
        <>
          {!webhookActive && <p className="mr-auto self-center text-[13px] text-zinc-500">Enable the webhook to replay its deliveries.</p>}
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => data && replay.mutate(data.id)} disabled={!data || !webhookActive} loading={replay.isPending}>
            {!replay.isPending && <RotateCcw aria-hidden />}
            Replay
          </Button>
        </>
      }
    >
      {delivery.isPending ? (
        <div className="flex flex-col gap-3" role="status" aria-label="Loading the delivery">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : delivery.isError ? (
        <ErrorState error={delivery.error} onRetry={() => void delivery.refetch()} title="Could not load the delivery" />
      ) : (
        <DeliveryLog delivery={delivery.data} />
      )}
    </Dialog>
  );
}
