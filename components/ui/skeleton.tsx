import { cn } from "@/lib/client/cn";

export function Skeleton({ className }: { className?: string }) {
  return <div className={cn("animate-pulse rounded-md bg-zinc-200/70", className)} aria-hidden />;
}

/** Placeholder rows while a list loads; announced once to screen readers. */
export function SkeletonRows({ rows = 5, columns = 4, className }: { rows?: number; columns?: number; className?: string }) {
  return (
    <div className={cn("divide-y divide-zinc-100", className)} role="status" aria-label="Loading">
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex items-center gap-6 px-5 py-3.5">
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} className={cn("h-4", column === 0 ? "w-1/4" : "flex-1")} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** Placeholder cards while a short list of cards loads (forms, topics, webhooks). */
export function SkeletonCards({ label, count = 2, className }: { label: string; count?: number; className?: string }) {
  return (
    <div className="flex flex-col gap-4 p-5" role="status" aria-label={label}>
      {Array.from({ length: count }, (_, index) => (
        <Skeleton key={index} className={cn("w-full", className)} />
      ))}
    </div>
  );
}

/** A record's screen while it loads: its breadcrumb and title, the main column beside a 320 px aside. */
export function SkeletonRecordPage({ label, titleClassName, mainClassName }: { label: string; titleClassName: string; mainClassName: string }) {
  return (
    <div role="status" aria-label={label}>
      <Skeleton className="mb-2 h-4 w-20" />
      <Skeleton className={cn("mb-8 h-8 max-w-full", titleClassName)} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
        <Skeleton className={cn("rounded-xl", mainClassName)} />
        <Skeleton className="h-80 rounded-xl" />
      </div>
    </div>
  );
}
