"use client";

import { History } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { cn } from "@/lib/client/cn";
import { useContactEvents } from "@/lib/client/resources/contact-page";
import { timelineLabel, type TimelineEvent, type TimelineTone } from "./timeline-labels";

const toneClasses: Record<TimelineTone, string> = {
  neutral: "bg-zinc-100 text-zinc-600",
  brand: "bg-brand-50 text-brand-700",
  success: "bg-emerald-50 text-emerald-700",
  danger: "bg-red-50 text-red-700",
  warning: "bg-amber-50 text-amber-800",
  automation: "bg-violet-50 text-violet-700",
};

function TimelineItem({ event, subjects }: { event: TimelineEvent; subjects: Map<string, string> }) {
  const label = timelineLabel(event);
  const Icon = label.icon;
  const subject = event.email_id ? (subjects.get(event.email_id) ?? "an email") : null;
  return (
    <li className="relative flex gap-3 pb-5 last:pb-0">
      <span
        className={cn("relative z-10 flex size-7 shrink-0 items-center justify-center rounded-full ring-4 ring-white", toneClasses[label.tone])}
        aria-hidden
      >
        <Icon className="size-3.5" />
      </span>
      <div className="min-w-0 flex-1 pt-0.5">
        <p className="text-[13px] text-zinc-900">
          <span className="font-medium">{label.action}</span>
          {label.withSubject && subject !== null && event.email_id && (
            <>
              {" "}
              <Link href={`/emails/${event.email_id}`} className="font-medium text-brand-700 italic hover:underline">
                {subject || "(no subject)"}
              </Link>
            </>
          )}
          {label.machine && (
            <Badge tone="neutral" className="ml-2" title="Made by a program (a privacy proxy, a link scanner): left out of the rates">
              machine
            </Badge>
          )}
        </p>
        {label.details.map((detail, i) => (
          <p key={i} className="mt-0.5 text-xs break-all text-zinc-500">
            {detail}
          </p>
        ))}
        <p className="mt-0.5 text-xs text-zinc-400">
          <RelativeTime value={event.occurred_at} />
          {event.source === "api" && " · sent by your application"}
        </p>
      </div>
    </li>
  );
}

/**
 * Everything that happened to the contact, newest first: emails sent and what the contact did with
 * them, changes to the contact, the events your application sent, and (once automations run) the
 * steps of its automations, which come as `automation.*` events.
 */
export function ContactTimeline({ contactId, subjects }: { contactId: string; subjects: Map<string, string> }) {
  const query = useContactEvents(contactId);
  const events = query.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Card>
      <CardHeader title="Timeline" description="What the contact did and what happened to it, newest first." />
      <ListState
        query={query}
        loading={<SkeletonRows rows={6} columns={2} />}
        errorTitle="Could not load the timeline"
        isEmpty={events.length === 0}
        empty={
          <EmptyState icon={History} title="Nothing has happened yet">
            Emails sent to this contact, its opens and clicks, changes to it and the events your application records with{" "}
            <code className="text-xs">POST /v1/events</code> show here.
          </EmptyState>
        }
      >
        <ol aria-label="Timeline" className="relative px-5 py-4 before:absolute before:top-6 before:bottom-6 before:left-[33px] before:w-px before:bg-zinc-200">
          {events.map((event) => (
            <TimelineItem key={event.id} event={event} subjects={subjects} />
          ))}
        </ol>
        {query.hasNextPage && (
          <div className="border-t border-zinc-100 px-5 py-3">
            <Button variant="secondary" size="sm" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
              Show older events
            </Button>
          </div>
        )}
        {query.isFetchNextPageError && <p className="px-5 pb-3 text-xs text-red-700">Could not load older events. Try again.</p>}
      </ListState>
    </Card>
  );
}
