import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { NoOrganization } from "@/components/shell/no-organization";
import { RedirectToSignIn } from "@/components/shell/redirect-to-sign-in";
import { ORGANIZATION_COOKIE, sessionUserId } from "@/lib/auth/session-user";
import { describeSession } from "@/lib/services/accounts";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const userId = await sessionUserId((await headers()).get("cookie"));
  const session = userId ? await describeSession(userId, (await cookies()).get(ORGANIZATION_COOKIE)?.value ?? null) : null;
  if (!session) return <RedirectToSignIn />;
  if (!session.current_organization_id) return <NoOrganization user={session.user} />;
  return <AppShell session={session}>{children}</AppShell>;
}
