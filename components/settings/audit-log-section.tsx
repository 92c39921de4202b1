"use client";

import type { z } from "zod";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import { useState } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { formatDateTime, RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { CursorPagination } from "@/components/ui/pagination";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useCursorPager } from "@/lib/client/use-cursor-pager";
import { AUDIT_ACTIONS, type auditLogEntry } from "@/lib/schemas/audit-log";

type AuditEntry = z.infer<typeof auditLogEntry>;

/** "api_key.created" → "API key created". */
const describe = (action: string) =>
  action
    .replace(/^api_key\./, "API key ")
    .replace(/\./g, " ")
    .replace(/_/g, " ")
    .replace(/^./, (c) => c.toUpperCase());

const detailText = (details: AuditEntry["details"]) =>
  details
    ? Object.entries(details)
        .map(([key, value]) => `${key.replace(/_/g, " ")}: ${String(value)}`)
        .join(", ")
    : "";

/** Who did what, from where: the organization's security-relevant actions, newest first. */
export function AuditLogSection() {
  const [action, setAction] = useState("");
  const pager = useCursorPager(25);
  const list = useQuery({
    queryKey: queryKeys.auditLog.page({ action, ...pager.query }),
    queryFn: () => apiCall("GET /v1/audit-log", { query: { ...pager.query, action } }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.data ?? [];
  return (
    <Card>
      <CardHeader
        title="Audit log"
        description="Sign-ins, API keys, members, invitations, domains, inboxes, webhooks and settings: who did it, when and from which address."
        actions={
          <NativeSelect
            aria-label="Filter by action"
            value={action}
            onChange={(event) => {
              setAction(event.target.value);
              pager.reset();
            }}
            options={[{ value: "", label: "All actions" }, ...AUDIT_ACTIONS.map((value) => ({ value, label: describe(value) }))]}
          />
        }
      />
      <ListState
        query={list}
        loading={<SkeletonRows rows={4} columns={5} />}
        errorTitle="Could not load the audit log"
        isEmpty={rows.length === 0 && pager.isFirstPage}
        empty={
          <EmptyState icon={ScrollText} title="Nothing recorded yet">
            {action ? "No entries for this action." : "Security-relevant actions appear here as they happen."}
          </EmptyState>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>When</TableHeaderCell>
              <TableHeaderCell>Action</TableHeaderCell>
              <TableHeaderCell>By</TableHeaderCell>
              <TableHeaderCell>Details</TableHeaderCell>
              <TableHeaderCell>IP address</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {rows.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell className="whitespace-nowrap text-zinc-500" title={formatDateTime(entry.created_at)}>
                  <RelativeTime value={entry.created_at} />
                </TableCell>
                <TableCell className="font-medium text-zinc-900">{describe(entry.action)}</TableCell>
                <TableCell className="text-zinc-600">
                  {entry.actor_email ?? "—"}
                  {entry.actor_api_key_id && <span className="ml-1 text-xs text-zinc-400">(API key)</span>}
                </TableCell>
                <TableCell className="max-w-xs truncate text-zinc-500" title={detailText(entry.details)}>
                  {detailText(entry.details) || (entry.target_type ? `${entry.target_type.replace(/_/g, " ")}` : "")}
                </TableCell>
                <TableCell className="font-mono text-xs text-zinc-500">{entry.ip ?? "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <CursorPagination {...pager.controls(list.data)} loading={list.isFetching} />
      </ListState>
    </Card>
  );
}
