"use client";

import { FileUp, ListFilter, Plus, Sparkles, Users, X } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState, NoMatchState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { PagePagination } from "@/components/ui/pagination";
import { RowActions, RowDeleteItem, RowEditItem } from "@/components/ui/row-actions";
import { SearchInput } from "@/components/ui/search-input";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { TagInput } from "@/components/ui/tag-input";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { queryKeys } from "@/lib/client/query-keys";
import { useSegments } from "@/lib/client/resources/segments";
import { apiCall } from "@/lib/client/api";
import type { FirstPage } from "@/lib/client/first-page";
import type { ContactRecord } from "@/lib/schemas/contacts";
import type { Filter } from "@/lib/schemas/filter-language";
import { CONTACTS_PAGE_SIZE as PAGE_SIZE, contactFilterQuery, type ContactFilters } from "./contact-query";
import { ExportButton } from "./export-button";
import { SuppressionBadge } from "./suppression";
import { contactsKey, useContactPage } from "./use-contacts";

// The form (react-hook-form, zod) loads when a contact is first opened, not with the list; the filter builder when first asked for.
const ContactDialog = dynamic(() => import("./contact-dialog").then((m) => m.ContactDialog), { ssr: false });
const AdvancedFilterDialog = dynamic(() => import("./advanced-filter-dialog").then((m) => m.AdvancedFilterDialog), { ssr: false });
// The bulk actions (their dialogs and the job's progress) load when the first row is ticked.
const BulkActionsBar = dynamic(() => import("./bulk-actions-bar").then((m) => m.BulkActionsBar), { ssr: false });

const subscriptionOptions = [
  { value: "", label: "All contacts" },
  { value: "true", label: "Subscribed" },
  { value: "false", label: "Unsubscribed" },
];

const fullName = (c: ContactRecord) => [c.first_name, c.last_name].filter(Boolean).join(" ");

/** The contacts list; `first` is its first page as the server read it with the page (app/(dashboard)/contacts/page.tsx). */
export function ContactsList({ first }: { first?: FirstPage<ContactRecord> }) {
  const params = useSearchParams();
  const segments = useSegments();
  const [search, setSearch] = useState("");
  const [filters, setFilters] = useState<Omit<ContactFilters, "search">>({ subscribed: "", tags: [], segment_id: params.get("segment_id") ?? "", filter: "" });
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const advanced = filters.filter ? (JSON.parse(filters.filter) as Filter) : null;
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ open: boolean; contact?: ContactRecord }>({ open: false });
  const debouncedSearch = useDebouncedValue(search, 300);
  const { query, rows, served } = useContactPage({ ...filters, search: debouncedSearch }, PAGE_SIZE, (page - 1) * PAGE_SIZE, first);
  // Ticked rows by id, with their addresses (an export of them names them), kept across pages; or every contact the filters match.
  const [selected, setSelected] = useState<Map<string, string>>(() => new Map());
  const [allMatching, setAllMatching] = useState(false);
  const clearSelection = () => {
    setSelected(new Map());
    setAllMatching(false);
  };
  const toggle = (contacts: ContactRecord[], on: boolean) => {
    setAllMatching(false);
    setSelected((current) => {
      // Unticking a row of "all matching" leaves the rest of the page ticked.
      const next = new Map(allMatching ? rows.map((c) => [c.id, c.email]) : current);
      for (const contact of contacts)
        if (on) next.set(contact.id, contact.email);
        else next.delete(contact.id);
      return next;
    });
  };
  const pageTicked = rows.length > 0 && rows.every((c) => selected.has(c.id));

  const deleting = useDeleteAction<ContactRecord>({
    run: (contact) => apiCall("DELETE /v1/contacts/{id}", { params: { id: contact.id } }),
    done: (contact) => `Deleted ${contact.email}`,
    failure: "Could not delete the contact",
    invalidate: [contactsKey, queryKeys.segments.all()],
  });

  const update = (next: Partial<typeof filters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage(1);
    clearSelection();
  };
  const filtered = Boolean(debouncedSearch.trim() || filters.subscribed || filters.tags.length || filters.segment_id || filters.filter);
  const clear = () => {
    setSearch("");
    update({ subscribed: "", tags: [], segment_id: "", filter: "" });
  };

  const data = query.data;
  // The export takes the list's filters, without its page.
  const exportQuery = contactFilterQuery({ ...filters, search: debouncedSearch });
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : undefined;
  const segmentOptions = [{ value: "", label: "All segments" }, ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))];
  if (filters.segment_id && !segmentOptions.some((o) => o.value === filters.segment_id))
    segmentOptions.push({ value: filters.segment_id, label: segments.isPending ? "Loading…" : "Unknown segment" });

  const addButton = (
    <Button onClick={() => setDialog({ open: true })}>
      <Plus aria-hidden />
      Add contact
    </Button>
  );
  const importButton = (
    <Button variant="secondary" asChild>
      <Link href="/contacts/import">
        <FileUp aria-hidden />
        Import CSV
      </Link>
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Contacts"
        description="Everyone you can email. Contacts are matched by email address."
        actions={
          <>
            <ExportButton query={exportQuery} total={data?.total} />
            {importButton}
            {addButton}
          </>
        }
      />
      <Card>
        <FilterBar filtered={filtered} onClear={clear} className="items-start">
          <SearchInput
            className="min-w-56 flex-[2_1_14rem]"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
              clearSelection();
            }}
            placeholder="Search email or name"
            aria-label="Search contacts"
          />
          <NativeSelect
            aria-label="Subscription"
            className="w-40"
            value={filters.subscribed}
            onChange={(event) => update({ subscribed: event.target.value as ContactFilters["subscribed"] })}
            options={subscriptionOptions}
          />
          <NativeSelect
            aria-label="Segment"
            className="w-44"
            value={filters.segment_id}
            onChange={(event) => update({ segment_id: event.target.value })}
            options={segmentOptions}
          />
          <div className="min-w-56 flex-[1_1_14rem]">
            <TagInput
              value={filters.tags}
              onChange={(tags) => update({ tags })}
              placeholder="Filter by tags (all must match)"
              aria-label="Filter by tags; contacts must have all of them"
            />
          </div>
          <Button variant={advanced ? "primary" : "secondary"} onClick={() => setAdvancedOpen(true)}>
            <ListFilter aria-hidden />
            {advanced ? "Advanced filter on" : "Advanced filter"}
          </Button>
        </FilterBar>
        {advanced && (
          <div className="flex flex-wrap items-center gap-2 border-b border-zinc-100 bg-brand-50/40 px-3 py-2 text-[13px] text-zinc-700">
            <Sparkles className="size-4 text-brand-600" aria-hidden />
            <span>Only contacts matching the advanced filter.</span>
            <Button variant="ghost" size="sm" onClick={() => setAdvancedOpen(true)}>
              Edit
            </Button>
            <Button variant="ghost" size="sm" asChild>
              <Link href={`/segments/new?filter=${encodeURIComponent(filters.filter)}`}>Save as segment</Link>
            </Button>
            <Button variant="ghost" size="sm" className="ml-auto" onClick={() => update({ filter: "" })} aria-label="Remove the advanced filter">
              <X aria-hidden />
            </Button>
          </div>
        )}
        {(selected.size > 0 || allMatching) && (
          <BulkActionsBar
            selection={
              allMatching
                ? { filters: { ...filters, search: debouncedSearch }, count: data?.total ?? 0 }
                : { contact_ids: [...selected.keys()], emails: [...selected.values()], count: selected.size }
            }
            onClear={clearSelection}
            offerAll={pageTicked && !allMatching && data && data.total > rows.length ? { total: data.total, select: () => setAllMatching(true) } : undefined}
          />
        )}
        <ListState
          query={query}
          ready={served}
          loading={<SkeletonRows rows={8} columns={4} />}
          errorTitle="Could not load contacts"
          isEmpty={rows.length === 0}
          empty={
            filtered ? (
              <NoMatchState title="No contacts match" onClear={clear}>
                Try another search, or remove a filter.
              </NoMatchState>
            ) : (
              <EmptyState
                icon={Users}
                title="No contacts yet"
                action={
                  <>
                    {importButton}
                    {addButton}
                  </>
                }
              >
                Import a CSV from your CRM or newsletter tool, or add people one by one. Contacts can also be created through the API.
              </EmptyState>
            )
          }
        >
          <Table aria-busy={query.isFetching}>
            <TableHead>
              <tr>
                <TableHeaderCell className="w-8 pr-0">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-600"
                    aria-label="Select the contacts on this page"
                    checked={allMatching || pageTicked}
                    onChange={(event) => toggle(rows, event.target.checked)}
                  />
                </TableHeaderCell>
                <TableHeaderCell>Contact</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Tags</TableHeaderCell>
                <TableHeaderCell>Added</TableHeaderCell>
                <TableActionsHeaderCell />
              </tr>
            </TableHead>
            <TableBody className={query.isFetching && query.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>
              {rows.map((contact) => (
                <TableRow key={contact.id}>
                  <TableCell className="w-8 pr-0">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-600"
                      aria-label={`Select ${contact.email}`}
                      checked={allMatching || selected.has(contact.id)}
                      onChange={(event) => toggle([contact], event.target.checked)}
                    />
                  </TableCell>
                  <TableCell className="max-w-80">
                    <Link
                      href={`/contacts/${contact.id}`}
                      className="block max-w-full truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline focus-visible:underline focus-visible:outline-none"
                    >
                      {contact.email}
                    </Link>
                    {fullName(contact) && <p className="truncate text-xs text-zinc-500">{fullName(contact)}</p>}
                  </TableCell>
                  <TableCell>
                    {contact.subscribed ? (
                      <Badge tone="success" dot>
                        Subscribed
                      </Badge>
                    ) : (
                      <Badge tone="neutral" dot>
                        Unsubscribed
                      </Badge>
                    )}{" "}
                    <SuppressionBadge suppression={contact.suppression} />
                  </TableCell>
                  <TableCell>
                    <div className="flex max-w-64 flex-wrap gap-1">
                      {contact.tags.length === 0 && <span className="text-zinc-400">—</span>}
                      {contact.tags.slice(0, 3).map((tag) => (
                        <button
                          key={tag}
                          type="button"
                          title={`Filter by ${tag}`}
                          onClick={() => !filters.tags.includes(tag) && update({ tags: [...filters.tags, tag] })}
                          className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 hover:bg-zinc-200 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
                        >
                          {tag}
                        </button>
                      ))}
                      {contact.tags.length > 3 && <span className="text-xs text-zinc-500">+{contact.tags.length - 3}</span>}
                    </div>
                  </TableCell>
                  <TableCell className="text-[13px] text-zinc-600">
                    <RelativeTime value={contact.created_at} />
                  </TableCell>
                  <TableCell className="w-10">
                    <RowActions name={contact.email}>
                      <RowEditItem onSelect={() => setDialog({ open: true, contact })} />
                      <RowDeleteItem onSelect={() => deleting.ask(contact)} />
                    </RowActions>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <PagePagination page={page} pages={pages} total={data?.total} onPage={setPage} loading={query.isFetching} />
        </ListState>
      </Card>
      <ContactDialog open={dialog.open} onOpenChange={(open) => setDialog((current) => ({ ...current, open }))} contact={dialog.contact} />
      {advancedOpen && (
        <AdvancedFilterDialog
          open={advancedOpen}
          onOpenChange={setAdvancedOpen}
          value={advanced}
          onApply={(filter) => update({ filter: filter ? JSON.stringify(filter) : "" })}
        />
      )}
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.email ?? "contact"}?`}
        description="The contact is removed from every segment and will not receive anything more. Emails already sent to them stay in the Emails list."
        confirmLabel="Delete contact"
      />
    </>
  );
}
