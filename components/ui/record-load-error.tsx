import type { LucideIcon } from "lucide-react";
import Link from "next/link";
import { ApiError } from "@/lib/client/api";
import { BackLink } from "./back-link";
import { Button } from "./button";
import { Card } from "./card";
import { EmptyState } from "./empty-state";
import { ErrorState } from "./error-state";
import { PageHeader } from "./page-header";

type RecordLoadErrorProps = {
  /** The record's failed react-query result. */
  query: { error: unknown; refetch: () => unknown };
  /** The list the record belongs to, e.g. `{ href: "/emails", label: "Emails" }`: the breadcrumb and the way back. */
  list: { href: string; label: string };
  /** The page title while there is no record, e.g. "Email". */
  title: string;
  icon: LucideIcon;
  notFoundTitle: string;
  errorTitle: string;
};

/**
 * A detail screen whose record did not load. An id the API does not know (404) or cannot read (400)
 * is a dead link, so it reads as "not found" with a way back; any other failure can be retried.
 */
export function RecordLoadError({ query, list, title, icon, notFoundTitle, errorTitle }: RecordLoadErrorProps) {
  const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
  return (
    <>
      <PageHeader breadcrumb={<BackLink href={list.href}>{list.label}</BackLink>} title={title} />
      <Card>
        {missing ? (
          <EmptyState
            icon={icon}
            title={notFoundTitle}
            action={
              <Button asChild variant="secondary">
                <Link href={list.href}>{`Back to ${list.label.toLowerCase()}`}</Link>
              </Button>
            }
          >
            It may have been deleted, or it belongs to another organization.
          </EmptyState>
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} title={errorTitle} />
        )}
      </Card>
    </>
  );
}
