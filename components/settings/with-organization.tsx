"use client";

import type { ReactNode } from "react";
import { Card, CardBody } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useOrganization } from "@/lib/client/resources/organization";

type Organization = NonNullable<ReturnType<typeof useOrganization>["data"]>;

/**
 * A settings section drawn from the caller's organization: its loading card and its error with a
 * retry, the same for each section that reads GET /v1/organization, then `children` with the record.
 */
export function WithOrganization({ what, children }: { what: string; children: (organization: Organization) => ReactNode }) {
  const organization = useOrganization();
  if (organization.isPending) {
    return (
      <Card role="status" aria-label="Loading">
        <CardBody className="flex flex-col gap-3">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-9 max-w-md" />
        </CardBody>
      </Card>
    );
  }
  if (organization.isError) {
    return (
      <Card>
        <ErrorState error={organization.error} onRetry={() => void organization.refetch()} title={`Could not load ${what}`} />
      </Card>
    );
  }
  return children(organization.data);
}
