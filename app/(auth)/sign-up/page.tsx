import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { sessionUserId } from "@/lib/auth/session-user";
import { firstParam, safeCallbackUrl } from "@/lib/client/callback-url";
import { describeInvitation } from "@/lib/services/invitations";

export const metadata: Metadata = { title: "Create account" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignUpPage({ searchParams }: Props) {
  const params = await searchParams;
  const token = firstParam(params.invitation);
  const invitation = token ? await describeInvitation(token) : null;
  const pendingInvitation = token && invitation?.status === "pending" ? { token, email: invitation.email } : undefined;
  // Whoever came from an invitation link goes back to it to accept, whatever the link said.
  const callbackUrl = token ? `/invitations/${encodeURIComponent(token)}` : safeCallbackUrl(params.callbackUrl);
  if (await sessionUserId((await headers()).get("cookie"))) redirect(callbackUrl);

  const email = firstParam(params.email);
  const signInQuery = new URLSearchParams();
  if (callbackUrl !== "/") signInQuery.set("callbackUrl", callbackUrl);
  if (pendingInvitation?.email ?? email) signInQuery.set("email", pendingInvitation?.email ?? email ?? "");
  const signInHref = `/sign-in${signInQuery.size ? `?${signInQuery}` : ""}`;

  return (
    <AuthCard
      title={pendingInvitation && invitation ? `Join ${invitation.organization.name}` : "Create your account"}
      description={
        pendingInvitation && invitation
          ? `${invitation.inviter.name || invitation.inviter.email} invited you as ${invitation.role === "admin" ? "an admin" : "a member"}. Create your account, then accept the invitation.`
          : "Start sending broadcasts and sequences in minutes."
      }
      footer={
        <>
          Already have an account?{" "}
          <Link href={signInHref} className="font-medium text-brand-600 hover:text-brand-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm email={email} invitation={pendingInvitation} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
