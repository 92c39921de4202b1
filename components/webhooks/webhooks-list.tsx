"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, ChevronDown, Plus, Send, Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { RowActions, RowDeleteItem, RowEditItem } from "@/components/ui/row-actions";
import { SkeletonCards } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { cn } from "@/lib/client/cn";
import { webhookEventTypes } from "@/lib/schemas/webhooks";
import { DeliveriesPanel } from "./deliveries-panel";
import { SecretDialog } from "./secret-dialog";
import { WebhookDialog } from "./webhook-dialog";
import { deliveriesKey, outcomeOf, webhooksKey, type CreatedWebhook, type Webhook } from "./webhook-types";

function WebhookRow({ webhook, onEdit, onDelete }: { webhook: Webhook; onEdit: () => void; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const toggle = useMutation({
    mutationFn: () => apiCall("PUT /v1/webhooks/{id}/toggle", { params: { id: webhook.id } }),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: webhooksKey });
      const before = queryClient.getQueryData<Webhook[]>(webhooksKey);
      queryClient.setQueryData<Webhook[]>(webhooksKey, (list) => list?.map((w) => (w.id === webhook.id ? { ...w, active: !w.active } : w)));
      return { before };
    },
    onSuccess: (result) =>
      toast.success(
        result.active ? "Webhook enabled" : "Webhook disabled",
        result.active ? "New events are delivered again." : "No events are delivered until you enable it.",
      ),
    onError: (error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(webhooksKey, context.before);
      toast.error(error, "Could not change the webhook");
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
  // The server answers once the endpoint has (10 s at most); the delivery then tops the opened list.
  const sendTest = useMutation({
    mutationFn: () => apiCall("POST /v1/webhooks/{id}/test", { params: { id: webhook.id } }),
    onSuccess: async (delivery) => {
      if (delivery.status === "succeeded") toast.success("Test event delivered", outcomeOf(delivery));
      else toast.error(new Error(outcomeOf(delivery)), "The endpoint did not accept the test event");
      setOpen(true);
      await queryClient.invalidateQueries({ queryKey: deliveriesKey(webhook.id) });
    },
    onError: (error) => toast.error(error, "Could not send the test event"),
  });
  const everything = webhook.events.length === webhookEventTypes.length;
  const panelId = `deliveries-${webhook.id}`;

  return (
    <li className={cn(!webhook.active && "bg-zinc-50/60")}>
      <div className="flex flex-wrap items-start gap-x-4 gap-y-3 px-5 py-4">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className={cn("min-w-0 truncate font-mono text-[13px] font-medium", webhook.active ? "text-zinc-900" : "text-zinc-500")}>{webhook.url}</p>
            {!webhook.active && <Badge tone="neutral">Disabled</Badge>}
            {webhook.failure_count > 0 && (
              <Badge tone="warning">
                <AlertTriangle className="size-3" aria-hidden />
                {webhook.failure_count} failed in a row
              </Badge>
            )}
          </div>
          <div className="mt-1.5 flex flex-wrap gap-1">
            {everything ? (
              <Badge tone="brand">All events</Badge>
            ) : (
              webhook.events.map((event) => (
                <span key={event} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11.5px] text-zinc-700">
                  {event}
                </span>
              ))
            )}
          </div>
          {webhook.disabled_reason && !webhook.active && <p className="mt-1.5 text-[13px] text-amber-800">{webhook.disabled_reason}</p>}
          <p className="mt-1.5 text-xs text-zinc-500">
            Added <RelativeTime value={webhook.created_at} />
          </p>
        </div>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-2 text-[13px] text-zinc-600">
            <Switch checked={webhook.active} onCheckedChange={() => toggle.mutate()} disabled={toggle.isPending} aria-label={`Enabled: ${webhook.url}`} />
            {webhook.active ? "Enabled" : "Disabled"}
          </label>
          <Button variant="secondary" size="sm" onClick={() => sendTest.mutate()} loading={sendTest.isPending}>
            {!sendTest.isPending && <Send aria-hidden />}
            Send test event
          </Button>
          <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
            Deliveries
            <ChevronDown className={cn("transition-transform", open && "rotate-180")} aria-hidden />
          </Button>
          <RowActions name={webhook.url}>
            <RowEditItem onSelect={onEdit} />
            <RowDeleteItem onSelect={onDelete} />
          </RowActions>
        </div>
      </div>
      <div id={panelId}>{open && <DeliveriesPanel webhookId={webhook.id} webhookActive={webhook.active} />}</div>
    </li>
  );
}

export function WebhooksList() {
  const webhooks = useQuery({ queryKey: webhooksKey, queryFn: async () => (await apiCall("GET /v1/webhooks")).data });
  const [dialog, setDialog] = useState<{ open: boolean; webhook?: Webhook }>({ open: false });
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const deleting = useDeleteAction<Webhook>({
    run: (webhook) => apiCall("DELETE /v1/webhooks/{id}", { params: { id: webhook.id } }),
    done: () => "Webhook deleted",
    failure: "Could not delete the webhook",
    invalidate: [webhooksKey],
  });

  const addButton = (
    <Button onClick={() => setDialog({ open: true })}>
      <Plus aria-hidden />
      Add webhook
    </Button>
  );
  const rows = webhooks.data ?? [];

  return (
    <>
      <PageHeader title="Webhooks" description="Get email, contact and broadcast events pushed to your own endpoint as they happen." actions={addButton} />
      <Card>
        <ListState
          query={webhooks}
          loading={<SkeletonCards label="Loading webhooks" className="h-14" />}
          errorTitle="Could not load webhooks"
          isEmpty={rows.length === 0}
          empty={
            <EmptyState icon={WebhookIcon} title="No webhooks yet" action={addButton}>
              Add an endpoint to hear about deliveries, opens, bounces, replies and unsubscribes the moment they happen.
            </EmptyState>
          }
        >
          <ul className="divide-y divide-zinc-100" aria-label="Webhooks">
            {rows.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} onEdit={() => setDialog({ open: true, webhook })} onDelete={() => deleting.ask(webhook)} />
            ))}
          </ul>
        </ListState>
      </Card>
      <WebhookDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((current) => ({ ...current, open }))}
        webhook={dialog.webhook}
        onCreated={setCreated}
      />
      <SecretDialog webhook={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        {...deleting.dialog}
        title="Delete this webhook?"
        description={
          <>
            <span className="font-mono text-[13px] break-all">{deleting.target?.url}</span> stops receiving events, and its pending deliveries are dropped. This
            cannot be undone.
          </>
        }
        confirmLabel="Delete webhook"
      />
    </>
  );
}
