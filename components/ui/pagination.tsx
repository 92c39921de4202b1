import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { Button } from "./button";

/** Previous/next for cursor lists (`before`/`after`). */
export function CursorPagination({
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  summary,
  loading,
  className,
}: {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  summary?: ReactNode;
  loading?: boolean;
  className?: string;
}) {
  if (!hasPrevious && !hasNext && !summary) return null;
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-between gap-3 border-t border-zinc-100 px-5 py-3 text-sm text-zinc-500", className)}>
      <div>{summary}</div>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={onPrevious} disabled={!hasPrevious || loading}>
          <ChevronLeft aria-hidden />
          Previous
        </Button>
        <Button variant="secondary" size="sm" onClick={onNext} disabled={!hasNext || loading}>
          Next
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}

/** Numbered pages (`page`/`pages`), e.g. the emails list. `pages` undefined: the total is still being counted. */
export function PagePagination({
  page,
  pages,
  onPage,
  total,
  loading,
  className,
}: {
  page: number;
  pages: number | undefined;
  onPage: (page: number) => void;
  total?: number;
  loading?: boolean;
  className?: string;
}) {
  if (pages !== undefined && pages <= 1 && total === undefined) return null;
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-between gap-3 border-t border-zinc-100 px-5 py-3 text-sm text-zinc-500", className)}>
      {pages === undefined ? (
        <div aria-live="polite">
          Page <span className="font-medium text-zinc-800">{page}</span> · counting…
        </div>
      ) : (
        <div>
          Page <span className="font-medium text-zinc-800">{Math.min(page, Math.max(pages, 1))}</span> of{" "}
          <span className="font-medium text-zinc-800">{Math.max(pages, 1)}</span>
          {total !== undefined && <span> · {total.toLocaleString()} total</span>}
        </div>
      )}
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 1 || loading}>
          <ChevronLeft aria-hidden />
          Previous
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onPage(page + 1)} disabled={pages === undefined || page >= pages || loading}>
          Next
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
