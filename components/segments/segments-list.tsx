"use client";

import { Filter, ListPlus, Plus, Sparkles, Users } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { RowActions, RowDeleteItem, RowEditItem } from "@/components/ui/row-actions";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { SegmentDialog } from "./segment-dialog";
import { queryKeys } from "@/lib/client/query-keys";
import { useSegments, type Segment } from "@/lib/client/resources/segments";

export function SegmentsList() {
  const router = useRouter();
  const segments = useSegments();
  const [dialog, setDialog] = useState<{ open: boolean; segment?: Segment }>({ open: false });
  const deleting = useDeleteAction<Segment>({
    run: (segment) => apiCall("DELETE /v1/segments/{id}", { params: { id: segment.id } }),
    done: (segment) => [`Deleted ${segment.name}`, "Its contacts are still in Contacts."],
    failure: "Could not delete the segment",
    invalidate: [queryKeys.segments.all()],
  });

  const createButton = (
    <>
      <Button variant="secondary" onClick={() => setDialog({ open: true })}>
        <ListPlus aria-hidden />
        Static list
      </Button>
      <Button asChild>
        <Link href="/segments/new">
          <Plus aria-hidden />
          Dynamic segment
        </Link>
      </Button>
    </>
  );
  const rows = segments.data ?? [];

  return (
    <>
      <PageHeader
        title="Segments"
        description="Named groups of contacts to send broadcasts to and to end sequences with: a dynamic segment is whoever matches its conditions when it is used, a static list who you put in it."
        actions={createButton}
      />
      <Card>
        <ListState
          query={segments}
          loading={<SkeletonRows rows={4} columns={4} />}
          errorTitle="Could not load segments"
          isEmpty={rows.length === 0}
          empty={
            <EmptyState icon={Filter} title="No segments yet" action={createButton}>
              Build a dynamic segment from conditions (a property, a tag, what contacts opened or clicked), or make a static list and fill it from a CSV import.
              Broadcasts are sent to a segment.
            </EmptyState>
          }
        >
          <Table>
            <TableHead>
              <tr>
                <TableHeaderCell>Segment</TableHeaderCell>
                <TableHeaderCell className="text-right">Contacts</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableActionsHeaderCell />
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((segment) => (
                <TableRow key={segment.id}>
                  <TableCell className="max-w-md">
                    <div className="flex items-center gap-2">
                      {segment.filter ? (
                        <Link href={`/segments/${segment.id}`} className="truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                          {segment.name}
                        </Link>
                      ) : (
                        <p className="truncate font-medium text-zinc-900">{segment.name}</p>
                      )}
                      {segment.filter ? (
                        <Badge tone="info" title="Whoever matches its conditions when it is used">
                          <Sparkles className="size-3" aria-hidden />
                          Dynamic
                        </Badge>
                      ) : (
                        <Badge tone="neutral">Static</Badge>
                      )}
                    </div>
                    {segment.description && <p className="truncate text-xs text-zinc-500">{segment.description}</p>}
                  </TableCell>
                  <TableCell className="text-right">
                    <Link
                      href={`/contacts?segment_id=${segment.id}`}
                      className="inline-flex items-center gap-1.5 rounded font-medium text-zinc-900 tabular-nums hover:text-brand-700 hover:underline"
                      aria-label={`${segment.contacts_count} contacts in ${segment.name}; show them`}
                    >
                      <Users className="size-3.5 text-zinc-400" aria-hidden />
                      {segment.contacts_count.toLocaleString()}
                    </Link>
                  </TableCell>
                  <TableCell className="text-[13px] text-zinc-600">
                    <RelativeTime value={segment.created_at} />
                  </TableCell>
                  <TableCell className="w-10">
                    <RowActions name={segment.name}>
                      <DropdownMenuItem asChild>
                        <Link href={`/contacts?segment_id=${segment.id}`}>
                          <Users aria-hidden />
                          View contacts
                        </Link>
                      </DropdownMenuItem>
                      {segment.filter ? (
                        <RowEditItem onSelect={() => router.push(`/segments/${segment.id}`)} />
                      ) : (
                        <RowEditItem onSelect={() => setDialog({ open: true, segment })} />
                      )}
                      <RowDeleteItem onSelect={() => deleting.ask(segment)} />
                    </RowActions>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListState>
      </Card>
      <SegmentDialog open={dialog.open} onOpenChange={(open) => setDialog((current) => ({ ...current, open }))} segment={dialog.segment} />
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.name ?? "segment"}?`}
        description={
          <>
            The segment is deleted, but{" "}
            <strong className="font-medium text-zinc-800">its {deleting.target?.contacts_count.toLocaleString()} contacts are kept</strong>. Broadcasts sent to
            it lose their audience, and it is removed from sequence exit rules. A segment another dynamic segment includes cannot be deleted until that one
            stops including it.
          </>
        }
        confirmLabel="Delete segment"
      />
    </>
  );
}
