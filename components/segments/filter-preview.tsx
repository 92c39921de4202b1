"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { RotateCw, Users } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { ApiError, apiCall, errorMessage } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { Filter } from "@/lib/schemas/filter-language";

const fullName = (c: { first_name: string | null; last_name: string | null }) => [c.first_name, c.last_name].filter(Boolean).join(" ");

/**
 * Who a filter matches now, as it is being built: POST /v1/segments/preview half a second after the
 * last change, the count and the newest ten. While a condition is incomplete it says so instead.
 */
export function FilterPreview({ filter, incomplete }: { filter: Filter | null; incomplete: number }) {
  const json = useDebouncedValue(filter ? JSON.stringify(filter) : "", 500);
  const preview = useQuery({
    queryKey: queryKeys.segments.preview(json),
    queryFn: ({ signal }) => apiCall("POST /v1/segments/preview", { body: { filter: JSON.parse(json) as Filter }, signal }),
    enabled: json !== "",
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });
  const settling = filter !== null && (json !== JSON.stringify(filter) || preview.isFetching);

  return (
    <div aria-live="polite" className="flex flex-col gap-4">
      <div className="flex items-baseline gap-2">
        {preview.data ? (
          <p className="text-3xl font-semibold text-zinc-900 tabular-nums" data-testid="preview-count">
            {preview.data.contacts_count.toLocaleString()}
          </p>
        ) : preview.isPending && filter ? (
          <Skeleton className="h-9 w-24" />
        ) : (
          <p className="text-3xl font-semibold text-zinc-300">—</p>
        )}
        <p className="text-sm text-zinc-500">{preview.data?.contacts_count === 1 ? "contact matches now" : "contacts match now"}</p>
        {settling && <Spinner className="ml-auto size-4 text-zinc-400" />}
      </div>
      {filter === null && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
          {incomplete === 1 ? "One condition needs" : `${incomplete} conditions need`} a value before the count updates.
        </p>
      )}
      {preview.isError && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-[13px] text-red-900">
          <p className="font-medium">Could not count the contacts</p>
          <p>
            {preview.error instanceof ApiError && preview.error.details.length
              ? preview.error.details.map((d) => d.message).join("; ")
              : errorMessage(preview.error)}
          </p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void preview.refetch()}>
            <RotateCw aria-hidden />
            Try again
          </Button>
        </div>
      )}
      {preview.data && (
        <div>
          <p className="mb-1.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">Newest matches</p>
          {preview.data.sample.length === 0 ? (
            <p className="flex items-center gap-2 text-[13px] text-zinc-500">
              <Users className="size-4" aria-hidden />
              Nobody matches yet. Loosen a condition, or check its value.
            </p>
          ) : (
            <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200" data-testid="preview-sample">
              {preview.data.sample.map((contact) => (
                <li key={contact.id} className="px-3 py-2">
                  <p className="truncate text-sm font-medium text-zinc-900">{contact.email}</p>
                  {fullName(contact) && <p className="truncate text-xs text-zinc-500">{fullName(contact)}</p>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
