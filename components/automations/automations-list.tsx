"use client";

import { Plus, Workflow } from "lucide-react";
import { useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { CursorPagination } from "@/components/ui/pagination";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow, TableTitleCell } from "@/components/ui/table";
import { useAutomationPage } from "@/lib/client/resources/automations";
import { useSegments } from "@/lib/client/resources/segments";
import dynamic from "next/dynamic";
import { describeTrigger } from "./step-words";

// The dialog (its form and the schema's zod) loads on first use, as /contacts' do.
const NewAutomationDialog = dynamic(() => import("./new-automation-dialog").then((m) => m.NewAutomationDialog), { ssr: false });

export function AutomationsList() {
  const [creating, setCreating] = useState(false);
  const { query, pager } = useAutomationPage(20);
  const segments = useSegments();
  const segmentName = (id: string) => segments.data?.find((s) => s.id === id)?.name ?? "a segment";
  const rows = query.data?.data ?? [];
  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden />
      New automation
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Automations"
        description="Flows that run on their own: an event or a segment starts them, and each contact moves through waits, conditions and emails."
        actions={newButton}
      />
      <Card>
        <ListState
          query={query}
          loading={<SkeletonRows rows={5} columns={5} />}
          errorTitle="Could not load automations"
          isEmpty={rows.length === 0 && pager.isFirstPage}
          empty={
            <EmptyState icon={Workflow} title="No automations yet" action={newButton}>
              Welcome new sign-ups, follow up on a trial, or re-engage quiet contacts: pick what starts it, add steps, and activate it.
            </EmptyState>
          }
        >
          <Table>
            <TableHead>
              <tr>
                <TableHeaderCell>Automation</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell className="text-right">In progress</TableHeaderCell>
                <TableHeaderCell className="text-right">Entered</TableHeaderCell>
                <TableHeaderCell className="text-right">Completed</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((automation) => (
                <TableRow key={automation.id}>
                  <TableTitleCell
                    className="max-w-80"
                    href={`/automations/${automation.id}`}
                    title={automation.name}
                    detail={describeTrigger(automation.trigger, segmentName)}
                  />
                  <TableCell>
                    <StatusBadge status={automation.status} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{automation.stats.active.toLocaleString()}</TableCell>
                  <TableCell className="text-right tabular-nums">{automation.stats.entered.toLocaleString()}</TableCell>
                  <TableCell className="text-right tabular-nums">{automation.stats.completed.toLocaleString()}</TableCell>
                  <TableCell className="text-[13px] text-zinc-600">
                    <RelativeTime value={automation.created_at} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <CursorPagination {...pager.controls(query.data)} loading={query.isFetching} />
        </ListState>
      </Card>
      {creating && <NewAutomationDialog open={creating} onOpenChange={setCreating} />}
    </>
  );
}
