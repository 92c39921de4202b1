"use client";

import { CheckCircle2, Megaphone, Send } from "lucide-react";
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { PageHeader } from "@/components/ui/page-header";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import type { OrganizationOverview, OrganizationWarning } from "@/lib/schemas/reports";
import { formatCount, formatRate, NOT_REPORTED, NOT_TRACKED } from "./format";
import { LazyTimelineChart, type ChartSeries } from "./lazy-chart";
import { StatTile } from "./stat-tile";
import { useOrganizationOverview } from "@/lib/client/resources/reports";

const SERIES: ChartSeries[] = [
  { key: "sent", label: "Sent", color: "#a5b4fc", kind: "bar", axis: "right" },
  { key: "opened", label: "Opened", color: "#4f46e5", kind: "line" },
  { key: "clicked", label: "Clicked", color: "#059669", kind: "line" },
  { key: "bounced", label: "Bounced", color: "#dc2626", kind: "line" },
];

const WARNING_TITLES: Record<string, string> = {
  DOMAIN_FAILING: "Domain failing verification",
  DOMAIN_PENDING: "Domain not verified",
  INBOX_FAILED: "Inbox stopped",
  INBOX_FAILING: "Inbox failing",
  INBOX_PAUSED: "Inbox paused",
  INBOX_UNVERIFIED: "Inbox not verified",
  COMPLAINT_RATE: "Spam complaints",
  BOUNCE_RATE: "Bounces",
};

function WarningCallout({ warning }: { warning: OrganizationWarning }) {
  const settings = warning.resource.type === "domain" || warning.resource.type === "inbox";
  return (
    <Callout
      tone={warning.severity === "critical" ? "danger" : "warning"}
      title={`${WARNING_TITLES[warning.code] ?? "Needs attention"}: ${warning.resource.name}`}
      action={
        settings && (
          <Button variant="secondary" size="sm" asChild>
            <Link href="/settings">Open settings</Link>
          </Button>
        )
      }
    >
      {warning.message}
    </Callout>
  );
}

function SendingNow({ sending }: { sending: OrganizationOverview["sending"] }) {
  return (
    <Card>
      <CardHeader title="Sending now" description="Broadcasts whose emails are going out." />
      {sending.length === 0 ? (
        <CardBody>
          <p className="text-sm text-zinc-500">No broadcast is sending right now.</p>
        </CardBody>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Broadcasts sending now">
          {sending.map((b) => {
            const share = b.total_recipients ? (b.sent_count / b.total_recipients) * 100 : undefined;
            return (
              <li key={b.id} className="flex flex-col gap-2 px-5 py-3.5">
                <div className="flex items-center justify-between gap-3">
                  <Link href={`/broadcasts/${b.id}?tab=report`} className="truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                    {b.name}
                  </Link>
                  <StatusBadge status={b.status} />
                </div>
                <Progress value={share} label={`${b.name}: sent`} />
                <p className="text-xs text-zinc-500 tabular-nums">
                  {formatCount(b.sent_count)} of {formatCount(b.total_recipients)} sent
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function OverviewSkeleton() {
  return (
    <div role="status" aria-label="Loading the overview" className="flex flex-col gap-6">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-24 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-80 rounded-xl" />
    </div>
  );
}

function Figures({ overview }: { overview: OrganizationOverview }) {
  const { totals, rates } = overview;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <StatTile label="Sent" value={formatCount(totals.sent)} detail="emails in 30 days" />
      <StatTile
        label="Delivery rate"
        value={rates.delivery === null ? NOT_REPORTED : formatRate(rates.delivery)}
        detail={
          rates.delivery === null
            ? "None of these emails could get a delivery report"
            : `${formatCount(totals.delivered)} of ${formatCount(totals.delivery_reportable)} that could report it`
        }
      />
      <StatTile
        label="Open rate"
        value={rates.open === null ? NOT_TRACKED : formatRate(rates.open)}
        detail={rates.open === null ? "Sent without the open pixel" : `${formatCount(totals.opened)} of ${formatCount(totals.open_tracked)} tracked`}
      />
      <StatTile
        label="Click rate"
        value={rates.click === null ? NOT_TRACKED : formatRate(rates.click)}
        detail={rates.click === null ? "Sent without tracked links" : `${formatCount(totals.clicked)} of ${formatCount(totals.click_tracked)} tracked`}
      />
      <StatTile label="Bounce rate" value={formatRate(rates.bounce)} detail={`${formatCount(totals.bounced)} bounced`} />
      <StatTile label="Complaint rate" value={formatRate(rates.complaint)} detail={`${formatCount(totals.complained)} · keep under 0.3%`} />
    </div>
  );
}

/** The dashboard's home: the last 30 days of sending, what is going out, and what needs attention. */
export function OverviewScreen() {
  const query = useOrganizationOverview();
  const header = (
    <PageHeader
      title="Overview"
      description="Your organization's sending over the last 30 days, what is going out now, and what needs attention."
      actions={
        <Button asChild>
          <Link href="/broadcasts">
            <Megaphone aria-hidden />
            Broadcasts
          </Link>
        </Button>
      }
    />
  );
  if (query.isPending)
    return (
      <>
        {header}
        <OverviewSkeleton />
      </>
    );
  if (query.isError)
    return (
      <>
        {header}
        <ErrorState error={query.error} onRetry={() => void query.refetch()} title="Could not load the overview" />
      </>
    );
  const overview = query.data;
  const chart = overview.daily.map((day) => ({
    ...day,
    label: new Date(`${day.date}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" }),
  }));
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <section aria-label="Warnings" className="flex flex-col gap-3">
          {overview.warnings.length === 0 ? (
            <p className="inline-flex items-center gap-2 text-sm text-zinc-600">
              <CheckCircle2 className="size-4 text-emerald-600" aria-hidden />
              Nothing needs attention: no failing domain or inbox, complaints and bounces low.
            </p>
          ) : (
            overview.warnings.map((warning, index) => <WarningCallout key={`${warning.code}-${warning.resource.id ?? index}`} warning={warning} />)
          )}
        </section>
        <Figures overview={overview} />
        <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_340px]">
          <Card>
            <CardHeader title="Last 30 days" description="Emails sent each day (UTC), and how many of them people opened and clicked, and how many bounced." />
            <CardBody>
              {overview.totals.sent === 0 ? (
                <EmptyState
                  icon={Send}
                  title="Nothing sent in the last 30 days"
                  action={
                    <Button asChild variant="secondary">
                      <Link href="/broadcasts">Write a broadcast</Link>
                    </Button>
                  }
                >
                  Sends, opens and clicks appear here day by day.
                </EmptyState>
              ) : (
                <LazyTimelineChart data={chart} series={SERIES} label="Emails sent, opened, clicked and bounced per day" />
              )}
            </CardBody>
          </Card>
          <SendingNow sending={overview.sending} />
        </div>
      </div>
    </>
  );
}
