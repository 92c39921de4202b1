"use client";

import { FileText, Pencil, Plus } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { CursorPagination } from "@/components/ui/pagination";
import { RowActions, RowDeleteItem } from "@/components/ui/row-actions";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow, TableTitleCell } from "@/components/ui/table";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useTemplatePage, type Template } from "@/lib/client/resources/templates";

export function TemplatesList() {
  const { query, pager } = useTemplatePage(20);
  const deleting = useDeleteAction<Template>({
    run: (template) => apiCall("DELETE /v1/templates/{id}", { params: { id: template.id } }),
    done: (template) => `Deleted ${template.name}`,
    failure: "Could not delete the template",
    invalidate: [queryKeys.templates.all()],
  });

  const newButton = (
    <Button asChild>
      <Link href="/templates/new">
        <Plus aria-hidden />
        New template
      </Link>
    </Button>
  );
  const rows = query.data?.data ?? [];

  return (
    <>
      <PageHeader title="Templates" description="Reusable email designs with {{placeholders}} filled per recipient." actions={newButton} />
      <Card>
        <ListState
          query={query}
          loading={<SkeletonRows rows={5} columns={4} />}
          errorTitle="Could not load templates"
          isEmpty={rows.length === 0 && pager.isFirstPage}
          empty={
            <EmptyState icon={FileText} title="No templates yet" action={newButton}>
              Design an email once with placeholders like {"{{first_name}}"}, then use it in broadcasts and follow-ups.
            </EmptyState>
          }
        >
          <Table>
            <TableHead>
              <tr>
                <TableHeaderCell>Template</TableHeaderCell>
                <TableHeaderCell>Variables</TableHeaderCell>
                <TableHeaderCell>Updated</TableHeaderCell>
                <TableActionsHeaderCell />
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((template) => (
                <TableRow key={template.id}>
                  <TableTitleCell className="max-w-80" href={`/templates/${template.id}`} title={template.name} detail={template.subject} />
                  <TableCell>
                    <div className="flex max-w-72 flex-wrap gap-1">
                      {template.variables.length === 0 && <span className="text-zinc-400">—</span>}
                      {template.variables.slice(0, 4).map((name) => (
                        <span key={name} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
                          {name}
                        </span>
                      ))}
                      {template.variables.length > 4 && <span className="text-xs text-zinc-500">+{template.variables.length - 4}</span>}
                    </div>
                  </TableCell>
                  <TableCell className="text-[13px] text-zinc-600">
                    <RelativeTime value={template.updated_at} />
                  </TableCell>
                  <TableCell className="w-10">
                    <RowActions name={template.name}>
                      <DropdownMenuItem asChild>
                        <Link href={`/templates/${template.id}`}>
                          <Pencil aria-hidden />
                          Edit
                        </Link>
                      </DropdownMenuItem>
                      <RowDeleteItem onSelect={() => deleting.ask(template)} />
                    </RowActions>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <CursorPagination {...pager.controls(query.data)} loading={query.isFetching} />
        </ListState>
      </Card>
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.name ?? "template"}?`}
        description="Broadcasts and follow-ups that use it lose the link to this design. This cannot be undone."
        confirmLabel="Delete template"
      />
    </>
  );
}
