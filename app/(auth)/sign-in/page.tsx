import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { sessionUserId } from "@/lib/auth/session-user";
import { firstParam, safeCallbackUrl } from "@/lib/client/callback-url";

export const metadata: Metadata = { title: "Sign in" };

// Fixed sentences chosen by a query key, so a link cannot put words of its own on this page.
const notices: Record<string, string> = {
  "password-reset": "Your password was changed and every session was signed out. Sign in with the new password.",
  "signed-out-everywhere": "You were signed out on every device.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await sessionUserId((await headers()).get("cookie"))) redirect(callbackUrl);
  const email = firstParam(params.email);
  const signUpQuery = new URLSearchParams();
  if (callbackUrl !== "/") signUpQuery.set("callbackUrl", callbackUrl);
  if (email) signUpQuery.set("email", email);
  const signUpHref = `/sign-up${signUpQuery.size ? `?${signUpQuery}` : ""}`;
  return (
    <AuthCard
      title="Sign in"
      description="Welcome back. Sign in to your organization."
      footer={
        <>
          New here?{" "}
          <Link href={signUpHref} className="font-medium text-brand-600 hover:text-brand-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <SignInForm email={email} callbackUrl={callbackUrl} notice={notices[firstParam(params.notice) ?? ""]} />
    </AuthCard>
  );
}
