"use client";

import { useState } from "react";
import type { ListEnvelope } from "./api";

type Cursor = { after?: string; before?: string };

/**
 * Previous/next state for a cursor-paginated /v1 list. Put `query` into the request (and the
 * query key), and spread `controls(page)` into <CursorPagination>.
 */
export function useCursorPager(limit = 20) {
  const [cursor, setCursor] = useState<Cursor>({});
  return {
    query: { limit, after: cursor.after, before: cursor.before },
    /** On the newest page, where an empty answer means the list is empty rather than paged past its end. */
    isFirstPage: cursor.after === undefined && cursor.before === undefined,
    /** Back to the newest page, e.g. when a filter changes. */
    reset: () => setCursor({}),
    controls: (page: ListEnvelope<{ id: string }> | undefined) => {
      const data = page?.data ?? [];
      // `has_more` speaks about the direction of travel: older after `after`, newer after `before`.
      const hasNext = cursor.before !== undefined ? data.length > 0 : Boolean(page?.has_more);
      const hasPrevious = cursor.before !== undefined ? Boolean(page?.has_more) : cursor.after !== undefined;
      return {
        hasNext,
        hasPrevious,
        onNext: () => data.length && setCursor({ after: data[data.length - 1].id }),
        onPrevious: () => data.length && setCursor({ before: data[0].id }),
      };
    },
  };
}
