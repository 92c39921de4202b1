import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { findPreferences } from "@/lib/services/preferences";

export const metadata: Metadata = { title: "Email preferences", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const switchClass =
  "peer relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-zinc-300 transition-colors checked:bg-emerald-600 " +
  "before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow-sm before:transition-transform " +
  "checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:cursor-not-allowed disabled:opacity-50";

/**
 * The preference page every marketing email links (`/p/<token>`): the organization's topics with a
 * switch each and "unsubscribe from everything", usable without an account and on a phone, with no
 * script. Opening it changes nothing (mail scanners follow links); the form's POST does. A forged
 * or altered token is a 404.
 */
export default async function PreferencesPage({ params, searchParams }: Props) {
  const { token } = await params;
  const saved = (await searchParams).saved;
  const preferences = await findPreferences(token);
  if (!preferences) notFound();
  const { organizationName, address, subscribed, topics } = preferences;

  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-10 sm:pt-20">
      <Card className="w-full max-w-[480px] px-5 py-6 sm:px-8 sm:py-7">
        <p className="text-[13px] font-medium text-zinc-500">{organizationName}</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight text-zinc-900">Email preferences</h1>
        <p className="mt-2 text-sm break-words text-zinc-600">
          For <span className="font-medium text-zinc-900">{address}</span>
        </p>
        {saved && (
          <p role="status" className="mt-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            {saved === "all" ? `You are unsubscribed from all emails of ${organizationName}.` : "Your preferences are saved."}
          </p>
        )}
        {!subscribed && saved !== "all" && (
          <p className="mt-4 rounded-lg bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
            You are unsubscribed from all marketing emails of {organizationName}; your topic choices apply if you subscribe again.
          </p>
        )}
        <form method="post" action={`/p/${encodeURIComponent(token)}/save`} className="mt-6">
          {topics.length === 0 ? (
            <p className="text-sm text-zinc-600">{organizationName} has no topics to choose from.</p>
          ) : (
            <fieldset>
              <legend className="text-sm font-medium text-zinc-900">What you receive</legend>
              <ul className="mt-3 divide-y divide-zinc-100 rounded-lg border border-zinc-200">
                {topics.map((topic) => (
                  <li key={topic.topic_id}>
                    <label className="flex min-h-14 cursor-pointer items-center justify-between gap-4 px-4 py-3">
                      <span className="min-w-0">
                        <span className="block text-sm font-medium text-zinc-900">{topic.name}</span>
                        {topic.description && <span className="mt-0.5 block text-[13px] text-zinc-500">{topic.description}</span>}
                      </span>
                      <input type="hidden" name="shown" value={topic.topic_id} />
                      <input type="checkbox" role="switch" name="on" value={topic.topic_id} defaultChecked={topic.subscribed} className={switchClass} />
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          <div className="mt-6 flex flex-col gap-3">
            {topics.length > 0 && (
              <Button type="submit" name="action" value="save" className="h-11 w-full sm:h-9">
                Save preferences
              </Button>
            )}
            {subscribed && (
              <Button type="submit" name="action" value="unsubscribe_all" variant="secondary" className="h-11 w-full sm:h-9">
                Unsubscribe from everything
              </Button>
            )}
          </div>
        </form>
      </Card>
    </main>
  );
}
