"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Inbox as InboxIcon, MessagesSquare } from "lucide-react";
import dynamic from "next/dynamic";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { replyFieldId } from "@/components/emails/reply-field";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, NoMatchState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useBroadcastOptions } from "@/lib/client/resources/broadcasts";
import { useInboxes } from "@/lib/client/resources/inboxes";
import { useThreadInbox, type InboxFilters, type ThreadCategory } from "@/lib/client/resources/threads";
import { CATEGORIES } from "./categories";
import { ThreadList } from "./thread-list";
import { useInboxKeys } from "./use-inbox-keys";

const ThreadPane = dynamic(() => import("./thread-pane"), {
  loading: () => (
    <Card>
      <SkeletonRows rows={4} columns={2} />
    </Card>
  ),
});

const FILTER_NAMES = ["category", "inbox_id", "broadcast_id"] as const;

/** Every thread with a reply across the organization's inboxes: filter, read, answer and file them from one screen. */
export function UnifiedInbox() {
  const params = useSearchParams();
  const router = useRouter();
  const queryClient = useQueryClient();
  const filters: InboxFilters = {
    category: params.get("category") ?? "",
    inbox_id: params.get("inbox_id") ?? "",
    broadcast_id: params.get("broadcast_id") ?? "",
  };
  const selectedId = params.get("thread");

  // Filters and the open thread live in the URL: a reload, a shared link or Back show the same screen.
  const navigate = useCallback(
    (next: Partial<InboxFilters & { thread: string | null }>) => {
      const search = new URLSearchParams(params);
      for (const [name, value] of Object.entries(next)) {
        if (value) search.set(name, value);
        else search.delete(name);
      }
      router.replace(`/inbox${search.size ? `?${search}` : ""}`, { scroll: false });
    },
    [params, router],
  );

  const inbox = useThreadInbox(filters);
  const inboxes = useInboxes();
  const broadcasts = useBroadcastOptions();
  const threads = inbox.data?.pages.flatMap((page) => page.data) ?? [];
  const position = threads.findIndex((t) => t.id === selectedId);

  const select = (id: string | null) => navigate({ thread: id });
  const move = (step: 1 | -1) => {
    if (threads.length === 0) return;
    const next = position < 0 ? 0 : Math.min(Math.max(position + step, 0), threads.length - 1);
    select(threads[next].id);
  };

  const setCategory = async (threadId: string, category: ThreadCategory) => {
    try {
      await apiCall("PATCH /v1/threads/{threadId}", { params: { threadId }, body: { category } });
      toast.success(category === "done" ? "Marked done" : "Category changed");
    } catch (error) {
      toast.error(error, "Could not change the category");
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.threads.detail(threadId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.threads.list() }),
    ]);
  };

  // Done moves on to the next thread, as archiving does in a mail client.
  const markDone = async () => {
    if (!selectedId) return;
    const after = threads[position + 1] ?? threads[position - 1];
    const threadId = selectedId;
    select(after?.id ?? null);
    await setCategory(threadId, "done");
  };

  useInboxKeys({
    next: () => move(1),
    previous: () => move(-1),
    done: () => void markDone(),
    reply: () => document.getElementById(selectedId ? replyFieldId(selectedId) : "")?.focus(),
  });

  const filtered = FILTER_NAMES.some((name) => filters[name]);
  const inboxOptions = [{ value: "", label: "Every inbox" }, ...(inboxes.data ?? []).map((i) => ({ value: i.id, label: i.name }))];
  const broadcastOptions = [{ value: "", label: "Every broadcast" }, ...(broadcasts.data ?? []).map((b) => ({ value: b.id, label: b.name }))];
  for (const [options, value] of [
    [inboxOptions, filters.inbox_id],
    [broadcastOptions, filters.broadcast_id],
  ] as const) {
    if (value && !options.some((o) => o.value === value)) options.push({ value, label: "Loading…" });
  }

  return (
    <>
      <PageHeader title="Inbox" description="Every reply across your inboxes, newest first. j and k move, e marks done, r replies." />
      <div className="grid gap-6 lg:grid-cols-[minmax(18rem,24rem)_minmax(0,1fr)]">
        <Card className="h-fit overflow-hidden">
          <FilterBar filtered={filtered} onClear={() => navigate({ category: "", inbox_id: "", broadcast_id: "" })}>
            <NativeSelect
              aria-label="Category"
              className="w-40"
              value={filters.category}
              onChange={(event) => navigate({ category: event.target.value })}
              options={[{ value: "", label: "Every category" }, ...CATEGORIES.map((c) => ({ value: c.value, label: c.label }))]}
            />
            <NativeSelect
              aria-label="Inbox"
              className="w-40"
              value={filters.inbox_id}
              onChange={(event) => navigate({ inbox_id: event.target.value })}
              options={inboxOptions}
            />
            <NativeSelect
              aria-label="Broadcast"
              className="w-40"
              value={filters.broadcast_id}
              onChange={(event) => navigate({ broadcast_id: event.target.value })}
              options={broadcastOptions}
            />
          </FilterBar>
          <ListState
            query={inbox}
            loading={<SkeletonRows rows={6} columns={2} />}
            errorTitle="Could not load the inbox"
            isEmpty={threads.length === 0}
            empty={
              filtered ? (
                <NoMatchState title="No threads match" onClear={() => navigate({ category: "", inbox_id: "", broadcast_id: "" })}>
                  No reply is in this category, inbox or broadcast.
                </NoMatchState>
              ) : (
                <EmptyState icon={InboxIcon} title="No replies yet">
                  Replies to your broadcasts and sequences land here, sorted by what they ask of you, once an inbox with IMAP settings receives them.
                </EmptyState>
              )
            }
          >
            <ThreadList threads={threads} selectedId={selectedId} onSelect={select} />
            {inbox.hasNextPage && (
              <div className="border-t border-zinc-100 p-3">
                <Button variant="secondary" className="w-full" loading={inbox.isFetchingNextPage} onClick={() => void inbox.fetchNextPage()}>
                  Load more
                </Button>
              </div>
            )}
          </ListState>
        </Card>
        {selectedId ? (
          <ThreadPane key={selectedId} threadId={selectedId} onCategory={(category) => setCategory(selectedId, category)} />
        ) : (
          <Card className="h-fit">
            <EmptyState icon={MessagesSquare} title="Pick a thread">
              Open a conversation to read it, answer it with your team&apos;s shared draft, and file it. Press j to start at the newest.
            </EmptyState>
          </Card>
        )}
      </div>
    </>
  );
}
