"use client";

import { PenLine } from "lucide-react";
import { useEffect, useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/date";
import { cn } from "@/lib/client/cn";
import type { ThreadSummary } from "@/lib/client/resources/threads";
import { categoryOf } from "./categories";

function ThreadRow({ thread, selected, onSelect }: { thread: ThreadSummary; selected: boolean; onSelect: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const category = categoryOf(thread.category);
  // j and k move the selection: the row scrolls into view as a mail client's would.
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  return (
    <li>
      <button
        ref={ref}
        type="button"
        onClick={onSelect}
        aria-current={selected ? "true" : undefined}
        className={cn(
          "block w-full border-l-2 px-4 py-3 text-left hover:bg-zinc-50 focus-visible:bg-zinc-50 focus-visible:outline-none",
          selected ? "border-brand-600 bg-brand-50/50" : "border-transparent",
        )}
      >
        <span className="flex items-baseline justify-between gap-3">
          <span className="truncate text-sm font-medium text-zinc-900">{thread.from_name || thread.from_email || "Unknown sender"}</span>
          <span className="shrink-0 text-xs text-zinc-500">
            <RelativeTime value={thread.last_message_at} />
          </span>
        </span>
        <span className="mt-0.5 block truncate text-[13px] text-zinc-700">{thread.subject || "(no subject)"}</span>
        <span className="mt-0.5 line-clamp-2 block text-[13px] text-zinc-500">{thread.snippet || "No text"}</span>
        <span className="mt-1.5 flex items-center gap-2">
          <Badge tone={category.tone}>{category.label}</Badge>
          {thread.has_draft && (
            <span className="flex items-center gap-1 text-xs text-zinc-500">
              <PenLine className="size-3" aria-hidden />
              Draft
            </span>
          )}
        </span>
      </button>
    </li>
  );
}

/** The unified inbox's threads, newest activity first, the selected one marked. */
export function ThreadList({ threads, selectedId, onSelect }: { threads: ThreadSummary[]; selectedId: string | null; onSelect: (id: string) => void }) {
  return (
    <ol className="divide-y divide-zinc-100" aria-label="Threads">
      {threads.map((thread) => (
        <ThreadRow key={thread.id} thread={thread} selected={thread.id === selectedId} onSelect={() => onSelect(thread.id)} />
      ))}
    </ol>
  );
}
