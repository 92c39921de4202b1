"use client";

import { ClipboardList, ExternalLink, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { RowActions, RowDeleteItem, RowEditItem } from "@/components/ui/row-actions";
import { SkeletonCards } from "@/components/ui/skeleton";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useForms, type FormRecord } from "@/lib/client/resources/forms";

/** The Forms screen: every signup form with how many signed up and confirmed. */
export function FormsList() {
  const router = useRouter();
  const forms = useForms();
  const deleting = useDeleteAction<FormRecord>({
    run: (form) => apiCall("DELETE /v1/forms/{id}", { params: { id: form.id } }),
    done: (form) => `Deleted ${form.name}`,
    failure: "Could not delete the form",
    invalidate: [queryKeys.forms.all()],
  });
  const addButton = (
    <Button asChild>
      <Link href="/forms/new">
        <Plus aria-hidden />
        Create form
      </Link>
    </Button>
  );
  const rows = forms.data ?? [];

  return (
    <>
      <PageHeader
        title="Forms"
        description="Signup forms for your own site: a hosted page, a snippet to embed, double opt-in by default."
        actions={addButton}
      />
      <Card>
        <ListState
          query={forms}
          loading={<SkeletonCards label="Loading forms" className="h-12" />}
          errorTitle="Could not load forms"
          isEmpty={rows.length === 0}
          empty={
            <EmptyState icon={ClipboardList} title="No forms yet" action={addButton}>
              Build a signup form, link its hosted page or paste it into your site, and new subscribers confirm their address before they get anything.
            </EmptyState>
          }
        >
          <ul className="divide-y divide-zinc-100" aria-label="Forms">
            {rows.map((form) => (
              <li key={form.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-4">
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link href={`/forms/${form.id}`} className="truncate text-sm font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                      {form.name}
                    </Link>
                    <Badge tone={form.double_opt_in ? "success" : "warning"}>{form.double_opt_in ? "Double opt-in" : "Single opt-in"}</Badge>
                  </div>
                  <p className="mt-1 text-[13px] text-zinc-600 tabular-nums">
                    {form.submissions_count.toLocaleString()} signed up · {form.confirmed_count.toLocaleString()} subscribed
                  </p>
                </div>
                <Button variant="ghost" size="sm" asChild>
                  <a href={form.hosted_url} target="_blank" rel="noreferrer">
                    <ExternalLink aria-hidden />
                    Hosted page
                  </a>
                </Button>
                <RowActions name={form.name}>
                  <RowEditItem onSelect={() => router.push(`/forms/${form.id}`)} />
                  <RowDeleteItem onSelect={() => deleting.ask(form)} />
                </RowActions>
              </li>
            ))}
          </ul>
        </ListState>
      </Card>
      <ConfirmDialog
        {...deleting.dialog}
        title="Delete this form?"
        description={
          <>
            <span className="font-medium">{deleting.target?.name}</span>: its hosted page and the snippets on your sites stop working. Contacts who signed up
            stay.
          </>
        }
        confirmLabel="Delete form"
      />
    </>
  );
}
