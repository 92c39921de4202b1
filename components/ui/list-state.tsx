import type { ReactNode } from "react";
import { ErrorState } from "./error-state";

type ListQuery = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };

type ListStateProps = {
  /** The list's react-query result. */
  query: ListQuery;
  /** Shown until the first answer arrives, e.g. `<SkeletonRows />`. */
  loading: ReactNode;
  /** Rows are there before the first answer (the page's server-rendered first page): no loading placeholder. */
  ready?: boolean;
  errorTitle: string;
  isEmpty: boolean;
  /** Shown instead of the list when `isEmpty`, e.g. an `<EmptyState>` saying what to do next. */
  empty: ReactNode;
  /** The list itself. */
  children: ReactNode;
};

/** A loaded list, or what stands in its place: the loading placeholder, the error with a retry, or the empty state. */
export function ListState({ query, loading, ready = false, errorTitle, isEmpty, empty, children }: ListStateProps) {
  if (query.isPending && !ready) return loading;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} title={errorTitle} />;
  return isEmpty ? empty : children;
}
