import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { ForgotPasswordForm } from "@/components/auth/password-reset-forms";
import { firstParam } from "@/lib/client/callback-url";

export const metadata: Metadata = { title: "Reset your password" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ForgotPasswordPage({ searchParams }: Props) {
  const email = firstParam((await searchParams).email);
  return (
    <AuthCard
      title="Reset your password"
      description="Enter the address you sign in with. If it has an account, we mail it a link to choose a new password."
      footer={
        <Link href="/sign-in" className="font-medium text-brand-600 hover:text-brand-700 hover:underline">
          Back to sign in
        </Link>
      }
    >
      <ForgotPasswordForm email={email} />
    </AuthCard>
  );
}
