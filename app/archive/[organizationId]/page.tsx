import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui/card";
import { publicArchive } from "@/lib/services/public-archive";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Email archive" };

type Props = { params: Promise<{ organizationId: string }> };

/** The public archive of an organization that keeps one: its sent broadcasts, each shown for nobody in particular. */
export default async function ArchivePage({ params }: Props) {
  const archive = await publicArchive((await params).organizationId);
  if (!archive) notFound();
  const { organizationId } = await params;
  return (
    <div className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 pt-16 pb-12">
      <Card className="w-full max-w-[640px] px-6 py-7 sm:px-8">
        <h1 className="mb-1 text-xl font-semibold tracking-tight text-zinc-900">{archive.name}</h1>
        <p className="mb-5 text-sm text-zinc-500">Emails sent to our subscribers.</p>
        {archive.broadcasts.length === 0 ? (
          <p className="text-sm text-zinc-600">Nothing has been sent yet.</p>
        ) : (
          <ul aria-label="Sent emails" className="flex flex-col divide-y divide-zinc-100">
            {archive.broadcasts.map((b) => (
              <li key={b.id} className="flex items-baseline justify-between gap-4 py-2.5 text-sm">
                <a href={`/archive/${organizationId}/${b.id}`} className="min-w-0 truncate font-medium text-brand-700 hover:underline">
                  {b.subject}
                </a>
                <time dateTime={b.sent_at.toISOString()} className="shrink-0 text-zinc-500">
                  {b.sent_at.toISOString().slice(0, 10)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
