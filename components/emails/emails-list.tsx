"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ArrowDownLeft, Mail } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState, NoMatchState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { PagePagination } from "@/components/ui/pagination";
import { SearchInput } from "@/components/ui/search-input";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { queryKeys } from "@/lib/client/query-keys";
import { useBroadcastOptions } from "@/lib/client/resources/broadcasts";
import { useAllTemplates } from "@/lib/client/resources/templates";
import { apiCall } from "@/lib/client/api";
import { EmailStatus } from "@/lib/generated/prisma/enums";
import { firstPageRows, type FirstPage } from "@/lib/client/first-page";
import { emailFiltersFromUrl, emailPageQuery, type EmailFilters } from "./email-query";
import type { EmailListRow, EmailPage } from "./email-types";
import { EventIcons } from "./event-icons";

const statusOptions = [
  { value: "", label: "Any status" },
  ...Object.values(EmailStatus).map((status) => ({ value: status, label: status.charAt(0).toUpperCase() + status.slice(1) })),
];

type Filters = Omit<EmailFilters, "to" | "domain">;

/** "+2 recipients · " for an email to more than its first To address. */
function moreRecipients(email: EmailListRow): string {
  const more = Math.max(email.to.length, 1) - 1 + email.cc.length + email.bcc.length;
  return more > 0 ? `+${more} recipient${more === 1 ? "" : "s"} · ` : "";
}

/** The emails list; `first` is its first page as the server read it with the page (app/(dashboard)/emails/page.tsx). */
export function EmailsList({ first }: { first?: FirstPage<EmailListRow> }) {
  const params = useSearchParams();
  const router = useRouter();
  const [{ to: initialTo, domain: initialDomain, ...initialFilters }] = useState(() => emailFiltersFromUrl((name) => params.get(name)));
  const [to, setTo] = useState(initialTo);
  const [domain, setDomain] = useState(initialDomain);
  const [filters, setFilters] = useState<Filters>(initialFilters);
  const [page, setPage] = useState(1);
  const debouncedTo = useDebouncedValue(to.trim(), 300);
  const debouncedDomain = useDebouncedValue(domain.trim(), 300);

  const broadcasts = useBroadcastOptions();
  const templates = useAllTemplates();
  const query = emailPageQuery({ to: debouncedTo, domain: debouncedDomain, ...filters }, page);
  const emails = useQuery({
    queryKey: queryKeys.emails.page(query),
    // Asked with `offset`, the list answers the offset page (the contract allows the cursor list too).
    queryFn: ({ signal }) => apiCall("GET /v1/emails", { query, signal }) as Promise<EmailPage>,
    placeholderData: keepPreviousData,
  });

  const update = (next: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage(1);
  };
  const filtered = Boolean(debouncedTo || debouncedDomain || filters.status || filters.broadcast_id || filters.template_id);
  const clear = () => {
    setTo("");
    setDomain("");
    update({ status: "", broadcast_id: "", template_id: "" });
    if (params.size) router.replace("/emails");
  };

  const served = firstPageRows(first, query, emails.data !== undefined);
  const rows: EmailListRow[] = emails.data?.data ?? served ?? [];
  const pagination = emails.data?.pagination;
  const broadcastOptions = [{ value: "", label: "Any broadcast" }, ...(broadcasts.data ?? []).map((b) => ({ value: b.id, label: b.name }))];
  if (filters.broadcast_id && !broadcastOptions.some((o) => o.value === filters.broadcast_id))
    broadcastOptions.push({ value: filters.broadcast_id, label: broadcasts.isPending ? "Loading…" : "Unknown broadcast" });
  const templateOptions = [{ value: "", label: "Any template" }, ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))];

  return (
    <>
      <PageHeader title="Emails" description="Every email sent or received, with delivery and engagement times." />
      <Card>
        <FilterBar filtered={filtered} onClear={clear} className="items-center">
          <SearchInput
            className="min-w-56 flex-[2_1_14rem]"
            value={to}
            onChange={(event) => {
              setTo(event.target.value);
              setPage(1);
            }}
            placeholder="Recipient"
            aria-label="Filter by recipient"
          />
          <Input
            value={domain}
            onChange={(event) => {
              setDomain(event.target.value);
              setPage(1);
            }}
            placeholder="Sender domain"
            aria-label="Filter by sender domain"
            className="w-40 flex-[1_1_9rem]"
          />
          <NativeSelect
            aria-label="Status"
            className="w-36"
            value={filters.status}
            onChange={(event) => update({ status: event.target.value })}
            options={statusOptions}
          />
          <NativeSelect
            aria-label="Broadcast"
            className="w-44"
            value={filters.broadcast_id}
            onChange={(event) => update({ broadcast_id: event.target.value })}
            options={broadcastOptions}
          />
          <NativeSelect
            aria-label="Template"
            className="w-44"
            value={filters.template_id}
            onChange={(event) => update({ template_id: event.target.value })}
            options={templateOptions}
          />
        </FilterBar>
        <ListState
          query={emails}
          ready={served !== undefined}
          loading={<SkeletonRows rows={8} columns={5} />}
          errorTitle="Could not load emails"
          isEmpty={rows.length === 0}
          empty={
            filtered ? (
              <NoMatchState title="No emails match" onClear={clear}>
                Try another recipient or status, or remove a filter.
              </NoMatchState>
            ) : (
              <EmptyState
                icon={Mail}
                title="No emails yet"
                action={
                  <Button asChild>
                    <Link href="/broadcasts">Go to broadcasts</Link>
                  </Button>
                }
              >
                Emails appear here as soon as a broadcast or the API sends them, and replies arrive in their threads.
              </EmptyState>
            )
          }
        >
          <Table>
            <TableHead>
              <tr>
                <TableHeaderCell>Contact</TableHeaderCell>
                <TableHeaderCell>Subject</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Activity</TableHeaderCell>
                <TableHeaderCell>When</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody className={emails.isFetching && emails.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>
              {rows.map((email) => (
                <TableRow key={email.id} className="cursor-pointer" onClick={() => router.push(`/emails/${email.id}`)}>
                  <TableCell className="max-w-60">
                    <Link
                      href={`/emails/${email.id}`}
                      className="flex min-w-0 items-center gap-1.5 font-medium text-zinc-900 hover:text-brand-700 hover:underline"
                      onClick={(event) => event.stopPropagation()}
                    >
                      {email.direction === "inbound" && <ArrowDownLeft className="size-3.5 shrink-0 text-sky-600" aria-label="Received" />}
                      <span className="truncate">{email.direction === "inbound" ? email.from_email : email.to_email}</span>
                    </Link>
                    <p className="truncate text-xs text-zinc-500">
                      {email.direction === "inbound" ? `to ${email.to_email}` : `${moreRecipients(email)}from ${email.from_email}`}
                    </p>
                  </TableCell>
                  <TableCell className="max-w-80">
                    <span className="block truncate">{email.subject}</span>
                  </TableCell>
                  <TableCell>
                    <StatusBadge status={email.status} />
                  </TableCell>
                  <TableCell>
                    <EventIcons email={email} />
                  </TableCell>
                  <TableCell className="text-[13px] text-zinc-600">
                    {email.status === "scheduled" && email.scheduled_at ? (
                      <span title="Scheduled">
                        for <RelativeTime value={email.scheduled_at} />
                      </span>
                    ) : (
                      <RelativeTime value={email.sent_at ?? email.created_at} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {(pagination || served) && (
            <PagePagination page={page} pages={pagination?.pages} total={pagination?.total} onPage={setPage} loading={emails.isFetching} />
          )}
        </ListState>
      </Card>
    </>
  );
}
