"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FileUp, Plus, ShieldBan, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState, NoMatchState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { CursorPagination } from "@/components/ui/pagination";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { RowActions } from "@/components/ui/row-actions";
import { SearchInput } from "@/components/ui/search-input";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useSuppressionPage, type Suppression } from "@/lib/client/resources/suppressions";
import { useCursorPager } from "@/lib/client/use-cursor-pager";
import { MAX_SUPPRESSIONS_PER_REQUEST } from "@/lib/schemas/suppressions";
import { readAddresses } from "./read-addresses";
import { canManage, useSessionInfo } from "@/lib/client/session";

const reasonOptions = [
  { value: "", label: "All reasons" },
  { value: "hard_bounce", label: "Hard bounce" },
  { value: "soft_bounce", label: "Soft bounces" },
  { value: "complaint", label: "Complaint" },
  { value: "unsubscribe", label: "Unsubscribe" },
  { value: "manual", label: "Added by hand" },
];

/** Sends addresses in requests of at most MAX_SUPPRESSIONS_PER_REQUEST; answers how many were new. */
async function suppress(addresses: string[]): Promise<{ added: number; total: number }> {
  let added = 0;
  for (let at = 0; at < addresses.length; at += MAX_SUPPRESSIONS_PER_REQUEST) {
    const result = await apiCall("POST /v1/suppressions", { body: { emails: addresses.slice(at, at + MAX_SUPPRESSIONS_PER_REQUEST) } });
    added += result.added;
  }
  return { added, total: addresses.length };
}

function AddDialog({ open, onOpenChange, onAdded }: { open: boolean; onOpenChange: (open: boolean) => void; onAdded: () => void }) {
  const form = useForm<{ emails: string }>({ defaultValues: { emails: "" } });
  const submit = form.handleSubmit(async ({ emails }) => {
    const addresses = [
      ...new Set(
        emails
          .split(/[\s,;]+/)
          .map((value) => value.trim().toLowerCase())
          .filter(Boolean),
      ),
    ];
    if (addresses.length === 0) return form.setError("emails", { message: "Enter at least one address" });
    try {
      const { added, total } = await suppress(addresses);
      toast.success(
        `Suppressed ${added} of ${total} ${total === 1 ? "address" : "addresses"}`,
        added < total ? "The others were already suppressed." : undefined,
      );
      form.reset();
      onAdded();
    } catch (error) {
      const message = error instanceof Error ? error.message : "Could not add the addresses";
      form.setError("emails", { message });
    }
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Suppress addresses"
      description="Nothing is sent to these addresses any more: no broadcast, follow-up or single email."
      form={form}
      formId="add-suppressions"
      onSubmit={submit}
      submitLabel="Suppress"
    >
      <FormField label="Addresses" error={form.formState.errors.emails?.message} hint="One per line, or separated by commas.">
        <Textarea autoFocus rows={5} spellCheck={false} placeholder={"someone@example.com\nother@example.org"} {...form.register("emails")} />
      </FormField>
    </FormDialog>
  );
}

/** The suppression list: search, filter by reason, add by hand or from a CSV file, remove. */
export function SuppressionsList() {
  const queryClient = useQueryClient();
  const pager = useCursorPager(25);
  const [search, setSearch] = useState("");
  const [reason, setReason] = useState("");
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const { data: session } = useSessionInfo();
  // Bounces, complaints and unsubscriptions are lifted by an owner or admin only (the API answers a member 403).
  const removable = (entry: Suppression) => entry.reason === "manual" || canManage(session?.role);
  const debouncedSearch = useDebouncedValue(search, 300);
  const filters = { search: debouncedSearch.trim(), reason };
  const query = useSuppressionPage({ ...filters, ...pager.query });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.suppressions.all() });

  const removing = useDeleteAction<Suppression>({
    run: (entry) => apiCall("DELETE /v1/suppressions/{email}", { params: { email: entry.email } }),
    done: (entry) => `${entry.email} can receive mail again`,
    failure: "Could not remove the suppression",
    invalidate: [queryKeys.suppressions.all()],
  });

  const importFile = async (file: File) => {
    setImporting(true);
    try {
      const addresses = await readAddresses(file);
      if (addresses.length === 0) {
        toast.error(new Error("No email addresses found. Use a column named email, or one address per line."), "Nothing to import");
        return;
      }
      const { added, total } = await suppress(addresses);
      toast.success(`Imported ${file.name}`, `${added} of ${total} addresses newly suppressed.`);
      pager.reset();
      refresh();
    } catch (error) {
      toast.error(error, "Could not import the file");
    } finally {
      setImporting(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const filtered = Boolean(filters.search || reason);
  const clear = () => {
    setSearch("");
    setReason("");
    pager.reset();
  };
  const rows = query.data?.data ?? [];
  const actions = (
    <>
      <input
        ref={fileInput}
        type="file"
        accept=".csv,.txt,text/csv,text/plain"
        className="sr-only"
        aria-label="CSV file of addresses to suppress"
        onChange={(event) => event.target.files?.[0] && void importFile(event.target.files[0])}
      />
      <Button variant="secondary" loading={importing} onClick={() => fileInput.current?.click()}>
        {!importing && <FileUp aria-hidden />}
        Import CSV
      </Button>
      <Button onClick={() => setAdding(true)}>
        <Plus aria-hidden />
        Add addresses
      </Button>
    </>
  );

  return (
    <>
      <PageHeader
        title="Suppressions"
        description="Addresses nothing is sent to. Hard bounces, three soft bounces in a row and spam complaints land here by themselves."
        actions={actions}
      />
      <Card>
        <FilterBar filtered={filtered} onClear={clear}>
          <SearchInput
            className="min-w-56 flex-[2_1_14rem]"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              pager.reset();
            }}
            placeholder="Search addresses"
            aria-label="Search suppressed addresses"
          />
          <NativeSelect
            aria-label="Reason"
            className="w-44"
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              pager.reset();
            }}
            options={reasonOptions}
          />
        </FilterBar>
        <ListState
          query={query}
          loading={<SkeletonRows rows={6} columns={4} />}
          errorTitle="Could not load the suppression list"
          isEmpty={rows.length === 0 && pager.isFirstPage}
          empty={
            filtered ? (
              <NoMatchState title="No suppressed address matches" onClear={clear}>
                Try another search, or another reason.
              </NoMatchState>
            ) : (
              <EmptyState icon={ShieldBan} title="Nothing is suppressed" action={actions}>
                Addresses that bounce for good, keep bouncing, or report your mail as spam appear here, and nothing is sent to them again.
              </EmptyState>
            )
          }
        >
          <Table aria-busy={query.isFetching}>
            <TableHead>
              <tr>
                <TableHeaderCell>Address</TableHeaderCell>
                <TableHeaderCell>Reason</TableHeaderCell>
                <TableHeaderCell>Caused by</TableHeaderCell>
                <TableHeaderCell>Since</TableHeaderCell>
                <TableActionsHeaderCell />
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="max-w-80 truncate font-medium text-zinc-900">{entry.email}</TableCell>
                  <TableCell>
                    <StatusBadge status={entry.reason} />
                  </TableCell>
                  <TableCell className="text-[13px]">
                    {entry.email_id ? (
                      <Link href={`/emails/${entry.email_id}`} className="font-medium text-brand-600 hover:underline">
                        View email
                      </Link>
                    ) : (
                      <span className="text-zinc-400">—</span>
                    )}
                  </TableCell>
                  <TableCell className="text-[13px] text-zinc-600">
                    <RelativeTime value={entry.created_at} />
                  </TableCell>
                  <TableCell className="w-10">
                    {removable(entry) && (
                      <RowActions name={entry.email}>
                        <DropdownMenuItem destructive onSelect={() => removing.ask(entry)}>
                          <Trash2 aria-hidden />
                          Remove
                        </DropdownMenuItem>
                      </RowActions>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <CursorPagination {...pager.controls(query.data)} loading={query.isFetching} />
        </ListState>
      </Card>
      <AddDialog
        open={adding}
        onOpenChange={setAdding}
        onAdded={() => {
          setAdding(false);
          pager.reset();
          refresh();
        }}
      />
      <ConfirmDialog
        {...removing.dialog}
        title={`Remove ${removing.target?.email ?? "this address"} from the list?`}
        description={
          removing.target?.reason === "hard_bounce" || removing.target?.reason === "complaint"
            ? "It can receive mail again. Only do this if you know the address works now and wants your mail: sending to dead or unwilling addresses harms your reputation."
            : "It can receive mail again. A contact who unsubscribed stays unsubscribed."
        }
        confirmLabel="Remove suppression"
      />
    </>
  );
}
