"use client";

import { useEffect } from "react";
import { Spinner } from "@/components/ui/spinner";

/**
 * Sends a signed-out visitor to sign-in with the page they asked for as callbackUrl. It runs in the
 * browser because a server layout is not told the request's path and query.
 */
export function RedirectToSignIn() {
  useEffect(() => {
    const back = window.location.pathname + window.location.search;
    window.location.replace(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
  }, []);
  return (
    <div className="flex min-h-screen items-center justify-center gap-2 text-sm text-zinc-500">
      <Spinner />
      Redirecting to sign in…
    </div>
  );
}
