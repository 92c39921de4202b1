"use client";

import type { z } from "zod";
import type { accountProfile } from "@/lib/schemas/accounts";
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/error-state";
import { PageHeader } from "@/components/ui/page-header";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { PasswordCard, ProfileCard, SessionsCard } from "./profile-cards";
import { TwoFactorCard } from "./two-factor-card";

export type AccountProfile = z.infer<typeof accountProfile>;

export const accountKey = queryKeys.account();

/** The signed-in user's own settings: profile, password, two-factor sign-in, sessions. */
export function AccountScreen() {
  const account = useQuery({ queryKey: accountKey, queryFn: () => apiCall("GET /api/account") });
  return (
    <>
      <PageHeader title="Account and security" description="Your profile, your password, two-factor sign-in and where you are signed in." />
      {account.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : account.isError ? (
        <ErrorState error={account.error} onRetry={() => void account.refetch()} title="Could not load your account" />
      ) : (
        <div className="flex flex-col gap-6">
          <ProfileCard account={account.data} />
          <PasswordCard account={account.data} />
          <TwoFactorCard account={account.data} />
          <SessionsCard />
        </div>
      )}
    </>
  );
}
