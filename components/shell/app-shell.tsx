"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { sessionQueryKey, type SessionInfo } from "@/lib/client/session";
import { Logo } from "./logo";
import { MobileNav } from "./mobile-nav";
import { OrganizationSwitcher } from "./organization-switcher";
import { SidebarNav } from "./sidebar-nav";
import { UserMenu } from "./user-menu";
import { VerifyEmailBanner } from "./verify-email-banner";

/**
 * The dashboard frame: sidebar on laptop widths and up, a header menu below that; the header
 * carries the organization switcher and the account menu. The server's session seeds the
 * client cache so pages know the role without another request.
 */
export function AppShell({ session, children }: { session: SessionInfo; children: ReactNode }) {
  const queryClient = useQueryClient();
  useState(() => queryClient.setQueryData(sessionQueryKey, session));
  useEffect(() => {
    queryClient.setQueryData(sessionQueryKey, session);
  }, [queryClient, session]);

  return (
    <div className="min-h-screen lg:pl-60">
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
      <aside className="fixed inset-y-0 left-0 z-20 hidden w-60 flex-col border-r border-zinc-200 bg-zinc-50 lg:flex">
        <div className="flex h-14 items-center px-5">
          <Logo />
        </div>
        <div className="flex-1 overflow-y-auto px-3 pt-3 pb-6">
          <SidebarNav />
        </div>
      </aside>
      <div className="flex min-h-screen flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-zinc-200 bg-white/90 px-4 backdrop-blur supports-[backdrop-filter]:bg-white/75 sm:px-6 lg:px-8">
          <div className="flex items-center gap-1 lg:hidden">
            <MobileNav />
            <Logo className="mr-2" />
            <span className="mr-1 h-5 w-px bg-zinc-200" aria-hidden />
          </div>
          <OrganizationSwitcher session={session} />
          <div className="ml-auto flex items-center gap-3">
            <UserMenu user={session.user} />
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 lg:px-8">
          {!session.user.email_verified && <VerifyEmailBanner email={session.user.email} />}
          {children}
        </main>
      </div>
    </div>
  );
}
