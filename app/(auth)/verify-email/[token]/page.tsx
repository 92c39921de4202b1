import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { VerifyEmailButton } from "@/components/auth/verify-email-button";
import { buttonClasses } from "@/components/ui/button";
import { firstParam, safeCallbackUrl } from "@/lib/client/callback-url";
import { accountTokenUsable } from "@/lib/services/account-tokens";

export const metadata: Metadata = { title: "Verify your email" };

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The link only shows a button: mail scanners that open every link must not use it up.
export default async function VerifyEmailPage({ params, searchParams }: Props) {
  const { token } = await params;
  const callbackUrl = safeCallbackUrl(firstParam((await searchParams).callbackUrl));
  if (!(await accountTokenUsable(token, "verify_email"))) {
    return (
      <AuthCard title="This verification link does not work" description="It was used already, has expired (links work for 24 hours), or is incomplete.">
        <p className="text-sm text-zinc-600">Sign in and send a new link from the banner at the top of the dashboard.</p>
        <Link href="/" className={buttonClasses({ variant: "secondary", size: "lg", className: "mt-6 w-full" })}>
          Go to the dashboard
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verify your email address" description="Confirm that this address is yours to finish setting up your account.">
      <VerifyEmailButton token={token} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
