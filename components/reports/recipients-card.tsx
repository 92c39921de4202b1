"use client";

import { FilterIcon, Users } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { CursorPagination } from "@/components/ui/pagination";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toast";
import type { BroadcastReport, RecipientEvent } from "@/lib/schemas/reports";
import { formatCount } from "./format";
import { useBroadcastRecipients, useSaveRecipientsSegment } from "@/lib/client/resources/reports";

const EVENTS: { event: RecipientEvent; label: string; count: (totals: BroadcastReport["totals"]) => number; none: string }[] = [
  { event: "opened", label: "Opened", count: (t) => t.unique_opened, none: "Nobody has opened it yet (opens by privacy proxies and scanners are not listed)." },
  { event: "clicked", label: "Clicked", count: (t) => t.unique_clicked, none: "Nobody has clicked a link yet." },
  { event: "bounced", label: "Bounced", count: (t) => t.bounced, none: "No email bounced." },
  { event: "unsubscribed", label: "Unsubscribed", count: (t) => t.unsubscribed, none: "Nobody unsubscribed." },
  { event: "complained", label: "Complained", count: (t) => t.complained, none: "No spam complaints." },
];

function RecipientsTable({ broadcastId, event, none }: { broadcastId: string; event: RecipientEvent; none: string }) {
  const { query, pager } = useBroadcastRecipients(broadcastId, event);
  const rows = query.data?.data ?? [];
  return (
    <ListState
      query={query}
      loading={<SkeletonRows rows={4} columns={4} />}
      errorTitle="Could not load the recipients"
      isEmpty={rows.length === 0 && pager.isFirstPage}
      empty={
        <EmptyState icon={Users} title="Nobody here yet">
          {none}
        </EmptyState>
      }
    >
      <Table aria-label={`Recipients who ${event === "complained" ? "complained" : event}`}>
        <TableHead>
          <tr>
            <TableHeaderCell>Email</TableHeaderCell>
            <TableHeaderCell>Name</TableHeaderCell>
            <TableHeaderCell>Step</TableHeaderCell>
            <TableHeaderCell>When</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell className="max-w-72 truncate font-medium text-zinc-900">
                <Link href={`/emails/${row.id}`} className="hover:text-brand-700 hover:underline">
                  {row.email}
                </Link>
              </TableCell>
              <TableCell>{[row.first_name, row.last_name].filter(Boolean).join(" ") || <span className="text-zinc-400">—</span>}</TableCell>
              <TableCell className="text-zinc-500">{row.position === 0 ? "First email" : `Follow-up ${row.position}`}</TableCell>
              <TableCell className="text-zinc-600">
                <RelativeTime value={row.at} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <CursorPagination {...pager.controls(query.data)} loading={query.isFetching} />
    </ListState>
  );
}

/** Who opened, clicked, bounced, unsubscribed or complained, and a one-click segment of them. */
export function RecipientsCard({ broadcastId, report }: { broadcastId: string; report: BroadcastReport }) {
  const [event, setEvent] = useState<RecipientEvent>("opened");
  const save = useSaveRecipientsSegment(broadcastId);
  const current = EVENTS.find((e) => e.event === event)!;
  const saveAsSegment = () =>
    save.mutate(
      { event },
      {
        onSuccess: (segment) => toast.success(`Saved as segment “${segment.name}”`, `${formatCount(segment.contacts_count)} contacts. Find it under Segments.`),
        onError: (error) => toast.error(error, "Could not save the segment"),
      },
    );
  return (
    <Card>
      <CardHeader
        title="Recipients"
        description="Who did what, latest first. Save any of these lists as a segment to send them a follow-up."
        actions={
          <Button variant="secondary" size="sm" onClick={saveAsSegment} loading={save.isPending} disabled={current.count(report.totals) === 0}>
            {!save.isPending && <FilterIcon aria-hidden />}
            Save as segment
          </Button>
        }
      />
      <Tabs value={event} onValueChange={(value) => setEvent(value as RecipientEvent)}>
        <TabsList className="mb-0 px-3" aria-label="Recipients by event">
          {EVENTS.map((e) => (
            <TabsTrigger key={e.event} value={e.event}>
              {e.label}
              <span className="rounded-full bg-zinc-100 px-1.5 text-xs text-zinc-600 tabular-nums">{formatCount(e.count(report.totals))}</span>
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <RecipientsTable key={event} broadcastId={broadcastId} event={event} none={current.none} />
    </Card>
  );
}
