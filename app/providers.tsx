"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { SessionProvider } from "next-auth/react";
import { useState, type ReactNode } from "react";
import { Toaster } from "@/components/ui/toaster";
import { ApiError } from "@/lib/client/api";

// A session that expired while a page was open: go to sign-in and come back afterwards.
function onUnauthorized(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  const back = window.location.pathname + window.location.search;
  // A full load on purpose: every cached answer belongs to the expired session.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  if (!window.location.pathname.startsWith("/sign-in")) window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
}

function makeClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onUnauthorized }),
    mutationCache: new MutationCache({ onError: onUnauthorized }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // Client errors (validation, not found, forbidden) will not change on a retry.
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeClient);
  return (
    <SessionProvider refetchOnWindowFocus={false}>
      <QueryClientProvider client={client}>
        {children}
        <Toaster />
      </QueryClientProvider>
    </SessionProvider>
  );
}
