"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { BarChart3, CalendarClock, Copy, Megaphone, Pencil, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime, RelativeTime } from "@/components/ui/date";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { CursorPagination } from "@/components/ui/pagination";
import { RowActions, RowDeleteItem } from "@/components/ui/row-actions";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow, TableTitleCell } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useBroadcastPage } from "@/lib/client/resources/broadcasts";
import { counterShares, rate, type Broadcast } from "./broadcast-types";
import { duplicateBroadcast } from "./duplicate-broadcast";
import { NewBroadcastDialog } from "./new-broadcast-dialog";

function Counter({ value, of, share = of !== undefined ? rate(value, of) : "" }: { value: number; of?: number; share?: string }) {
  return (
    <div className="text-right tabular-nums">
      <div className="text-zinc-900">{value.toLocaleString()}</div>
      {share && <div className="text-xs text-zinc-500">{share}</div>}
    </div>
  );
}

function Schedule({ broadcast }: { broadcast: Broadcast }) {
  if (broadcast.status === "scheduled" && broadcast.scheduled_at) {
    return (
      <span className="inline-flex items-center gap-1.5 text-zinc-700" title={formatDateTime(broadcast.scheduled_at)}>
        <CalendarClock className="size-3.5 text-sky-600" aria-hidden />
        {formatDateTime(broadcast.scheduled_at)}
      </span>
    );
  }
  if (broadcast.completed_at)
    return (
      <span className="text-zinc-600">
        Sent <RelativeTime value={broadcast.completed_at} />
      </span>
    );
  if (broadcast.started_at)
    return (
      <span className="text-zinc-600">
        Started <RelativeTime value={broadcast.started_at} />
      </span>
    );
  if (broadcast.scheduled_at) return <span className="text-zinc-500">For {formatDateTime(broadcast.scheduled_at)}</span>;
  return <span className="text-zinc-400">Not scheduled</span>;
}

export function BroadcastsList() {
  const [creating, setCreating] = useState(false);
  const { query, pager } = useBroadcastPage(20);
  const queryClient = useQueryClient();
  const router = useRouter();
  const deleting = useDeleteAction<Broadcast>({
    run: (broadcast) => apiCall("DELETE /v1/broadcasts/{id}", { params: { id: broadcast.id } }),
    done: (broadcast) => `Deleted ${broadcast.name}`,
    failure: "Could not delete the broadcast",
    invalidate: [queryKeys.broadcasts.all()],
  });

  const duplicate = useMutation({
    mutationFn: duplicateBroadcast,
    onSuccess: (copy) => {
      toast.success("Duplicated", "This is the new draft.");
      void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.all() });
      router.push(`/broadcasts/${copy.id}`);
    },
    onError: (error) => toast.error(error, "Could not duplicate the broadcast"),
  });

  const rows = query.data?.data ?? [];
  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden />
      New broadcast
    </Button>
  );

  return (
    <>
      <PageHeader title="Broadcasts" description="Campaigns to a segment of your contacts, with optional follow-up sequences." actions={newButton} />
      <Card>
        <ListState
          query={query}
          loading={<SkeletonRows rows={6} columns={6} />}
          errorTitle="Could not load broadcasts"
          isEmpty={rows.length === 0 && pager.isFirstPage}
          empty={
            <EmptyState icon={Megaphone} title="No broadcasts yet" action={newButton}>
              Create a draft, choose who receives it and what it says, then send it now or schedule it. Add follow-up steps to turn it into a sequence.
            </EmptyState>
          }
        >
          <Table>
            <TableHead>
              <tr>
                <TableHeaderCell>Broadcast</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell className="text-right">Sent</TableHeaderCell>
                <TableHeaderCell className="text-right">Opened</TableHeaderCell>
                <TableHeaderCell className="text-right">Clicked</TableHeaderCell>
                <TableHeaderCell className="text-right">Bounced</TableHeaderCell>
                <TableHeaderCell>Schedule</TableHeaderCell>
                <TableActionsHeaderCell />
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((broadcast) => (
                <TableRow key={broadcast.id}>
                  <TableTitleCell className="max-w-72" href={`/broadcasts/${broadcast.id}`} title={broadcast.name} detail={broadcast.subject} />
                  <TableCell>
                    <StatusBadge status={broadcast.status} />
                  </TableCell>
                  <TableCell>
                    <Counter value={broadcast.sent_count} />
                  </TableCell>
                  <TableCell>
                    <Counter value={broadcast.opened_count} share={counterShares(broadcast).opened} />
                  </TableCell>
                  <TableCell>
                    <Counter value={broadcast.clicked_count} share={counterShares(broadcast).clicked} />
                  </TableCell>
                  <TableCell>
                    <Counter value={broadcast.bounced_count} of={broadcast.sent_count} />
                  </TableCell>
                  <TableCell className="text-[13px] whitespace-nowrap">
                    <Schedule broadcast={broadcast} />
                  </TableCell>
                  <TableCell className="w-10">
                    <RowActions name={broadcast.name}>
                      <DropdownMenuItem asChild>
                        <Link href={`/broadcasts/${broadcast.id}`}>
                          <Pencil aria-hidden />
                          {broadcast.status === "draft" || broadcast.status === "scheduled" ? "Edit" : "View"}
                        </Link>
                      </DropdownMenuItem>
                      {broadcast.started_at && (
                        <DropdownMenuItem asChild>
                          <Link href={`/broadcasts/${broadcast.id}?tab=report`}>
                            <BarChart3 aria-hidden />
                            Report
                          </Link>
                        </DropdownMenuItem>
                      )}
                      <DropdownMenuItem onSelect={() => duplicate.mutate(broadcast)} disabled={duplicate.isPending}>
                        <Copy aria-hidden />
                        Duplicate
                      </DropdownMenuItem>
                      <RowDeleteItem onSelect={() => deleting.ask(broadcast)} disabled={broadcast.status === "sending"} />
                    </RowActions>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <CursorPagination {...pager.controls(query.data)} loading={query.isFetching} />
        </ListState>
      </Card>
      <NewBroadcastDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.name ?? "broadcast"}?`}
        description="The broadcast and its follow-up steps are deleted. Emails already sent stay in the Emails list."
        confirmLabel="Delete broadcast"
      />
    </>
  );
}
