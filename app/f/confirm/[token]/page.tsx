import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { confirmationExpired, findConfirmation } from "@/lib/services/form-submissions";

export const metadata: Metadata = { title: "Confirm your subscription", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

/**
 * The page the confirmation email links. Opening it changes nothing (mail scanners open every link
 * of a message, which would confirm for the person); its button's POST subscribes.
 */
export default async function ConfirmPage({ params }: Props) {
  const { token } = await params;
  const submission = await findConfirmation(token);
  if (!submission) notFound();
  const organization = submission.form.organization.name;
  let body: React.ReactNode;
  if (submission.confirmed_at) {
    body = <p className="text-sm text-zinc-600">{`You are subscribed to emails from ${organization}. Thank you!`}</p>;
  } else if (confirmationExpired(submission)) {
    body = <p className="text-sm text-zinc-600">This confirmation link has expired. Please sign up again to receive a new one.</p>;
  } else {
    body = (
      <form method="post" action={`/f/confirm/${encodeURIComponent(token)}/yes`} className="space-y-5">
        <p className="text-sm text-zinc-600">
          Subscribe <span className="font-medium text-zinc-900">{submission.contact.email}</span> to emails from {organization}?
        </p>
        <Button type="submit" className="h-11 w-full sm:h-9">
          Confirm subscription
        </Button>
      </form>
    );
  }
  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-10 sm:pt-24">
      <Card className="w-full max-w-[420px] px-6 py-7 sm:px-8">
        <h1 className="mb-3 text-xl font-semibold tracking-tight text-zinc-900">{submission.form.name}</h1>
        {body}
      </Card>
    </main>
  );
}
