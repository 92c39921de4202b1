"use client";

import { RotateCw } from "lucide-react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatDateTime, RelativeTime } from "@/components/ui/date";
import { ListState } from "@/components/ui/list-state";
import { CursorPagination } from "@/components/ui/pagination";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { focusRing } from "@/components/ui/focus-ring";
import { cn } from "@/lib/client/cn";
import { useCursorList } from "@/lib/client/use-cursor-list";
import { useState } from "react";
import { DeliveryDialog } from "./delivery-dialog";
import { deliveriesKey } from "./webhook-types";

/** Every delivery of events to one webhook, newest first; each opens on its log. */
export function DeliveriesPanel({ webhookId, webhookActive }: { webhookId: string; webhookActive: boolean }) {
  const { query: deliveries, pager } = useCursorList(deliveriesKey(webhookId), "GET /v1/webhooks/{id}/deliveries", 10, { id: webhookId });
  const rows = deliveries.data?.data ?? [];
  const [opened, setOpened] = useState<string | null>(null);

  return (
    <div className="border-t border-zinc-100 bg-zinc-50/50">
      <div className="flex items-center justify-between px-5 py-2.5">
        <h3 className="text-[13px] font-semibold text-zinc-700">Recent deliveries</h3>
        <Button variant="ghost" size="sm" onClick={() => void deliveries.refetch()} loading={deliveries.isFetching && !deliveries.isPending}>
          {!(deliveries.isFetching && !deliveries.isPending) && <RotateCw aria-hidden />}
          Refresh
        </Button>
      </div>
      <ListState
        query={deliveries}
        loading={<SkeletonRows rows={3} columns={5} />}
        errorTitle="Could not load deliveries"
        isEmpty={rows.length === 0}
        empty={
          <p className="px-5 pb-4 text-sm text-zinc-500">
            No deliveries yet. They appear here as soon as one of the chosen events happens, or when you send a test event.
          </p>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Event</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell className="text-right">Attempts</TableHeaderCell>
              <TableHeaderCell>Response</TableHeaderCell>
              <TableHeaderCell>Last error</TableHeaderCell>
              <TableHeaderCell>When</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {rows.map((delivery) => (
              <TableRow key={delivery.id}>
                <TableCell className="whitespace-nowrap">
                  <button
                    type="button"
                    onClick={() => setOpened(delivery.id)}
                    className={cn("rounded font-mono text-[12.5px] text-brand-700 underline-offset-2 hover:underline", focusRing)}
                    aria-label={`Open the delivery of ${delivery.event_type}`}
                  >
                    {delivery.event_type}
                  </button>
                </TableCell>
                <TableCell>
                  <StatusBadge status={delivery.status} />
                  {delivery.status === "pending" && delivery.next_attempt_at && (
                    <p className="mt-0.5 text-xs text-zinc-500">Retry {formatDateTime(delivery.next_attempt_at)}</p>
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">{delivery.attempts}</TableCell>
                <TableCell>
                  {delivery.response_status === null ? (
                    <span className="text-zinc-400">—</span>
                  ) : (
                    <span className={cn("font-mono text-[12.5px] font-medium", delivery.response_status < 300 ? "text-emerald-700" : "text-red-600")}>
                      {delivery.response_status}
                    </span>
                  )}
                  {delivery.duration_ms !== null && (
                    <span className="ml-1.5 text-xs whitespace-nowrap text-zinc-500 tabular-nums">{delivery.duration_ms} ms</span>
                  )}
                </TableCell>
                <TableCell className="max-w-64">
                  {delivery.last_error ? (
                    <span className="block truncate text-[13px] text-red-700" title={delivery.last_error}>
                      {delivery.last_error}
                    </span>
                  ) : (
                    <span className="text-zinc-400">—</span>
                  )}
                </TableCell>
                <TableCell className="text-[13px] whitespace-nowrap text-zinc-600">
                  <RelativeTime value={delivery.last_attempt_at ?? delivery.created_at} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <CursorPagination {...pager.controls(deliveries.data)} loading={deliveries.isFetching} />
      </ListState>
      <DeliveryDialog webhookId={webhookId} webhookActive={webhookActive} deliveryId={opened} onClose={() => setOpened(null)} />
    </div>
  );
}
