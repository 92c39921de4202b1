import type { Metadata } from "next";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { findUnsubscribeTarget } from "@/lib/sending/unsubscribe";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// Opening the page changes nothing (mail scanners follow links); only the button's POST unsubscribes.
export default async function UnsubscribePage({ params, searchParams }: Props) {
  const { token } = await params;
  const done = (await searchParams).done === "1";
  const target = await findUnsubscribeTarget(token);

  let title = "Unsubscribe";
  let body: React.ReactNode;
  if (!target) {
    title = "Link not valid";
    body = <p className="text-sm text-zinc-600">This unsubscribe link is not valid. It may have been cut short by your email program.</p>;
  } else if (done || target.unsubscribed) {
    title = "You are unsubscribed";
    body = (
      <p className="text-sm text-zinc-600">
        <span className="font-medium text-zinc-900">{target.address}</span> will no longer receive marketing emails from {target.organizationName}.
      </p>
    );
  } else {
    body = (
      <form method="post" action={`/u/${encodeURIComponent(token)}/one-click`} className="space-y-5">
        <p className="text-sm text-zinc-600">
          Stop marketing emails from {target.organizationName} to <span className="font-medium text-zinc-900">{target.address}</span>?
        </p>
        <input type="hidden" name="source" value="page" />
        <Button type="submit" className="w-full">
          Unsubscribe
        </Button>
      </form>
    );
  }

  return (
    <div className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 pt-24">
      <Card className="w-full max-w-[420px] px-6 py-7 sm:px-8">
        <h1 className="mb-3 text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {body}
      </Card>
    </div>
  );
}
