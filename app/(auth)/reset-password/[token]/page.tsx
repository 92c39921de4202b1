import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { ResetPasswordForm } from "@/components/auth/password-reset-forms";
import { buttonClasses } from "@/components/ui/button";
import { accountTokenUsable } from "@/lib/services/account-tokens";

export const metadata: Metadata = { title: "Choose a new password" };

type Props = { params: Promise<{ token: string }> };

export default async function ResetPasswordPage({ params }: Props) {
  const { token } = await params;
  if (!(await accountTokenUsable(token, "reset_password"))) {
    return (
      <AuthCard title="This reset link does not work" description="It was used already, has expired (links work for 1 hour), or is incomplete.">
        <Link href="/forgot-password" className={buttonClasses({ size: "lg", className: "w-full" })}>
          Send a new link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" description="Every session of your account is signed out when you save it.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
