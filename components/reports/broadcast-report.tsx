"use client";

import { BarChart3 } from "lucide-react";
import { Callout } from "@/components/ui/callout";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import type { Broadcast } from "@/components/broadcasts/broadcast-types";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatBucket, formatCount } from "./format";
import { FunnelCard } from "./funnel-card";
import { InboxRepliesCard } from "./inbox-replies-card";
import { LazyTimelineChart, type ChartSeries } from "./lazy-chart";
import { LinksCard } from "./links-card";
import { RecipientsCard } from "./recipients-card";
import { CountingHelp } from "./counting-help";
import { ResendButton } from "./resend-dialog";
import { VariantsCard } from "./variants-card";
import { ReportFigures } from "./report-figures";
import { useBroadcastAverage, useBroadcastReport } from "@/lib/client/resources/reports";

const SERIES: ChartSeries[] = [
  { key: "sent", label: "Sent", color: "#a5b4fc", kind: "bar", axis: "right" },
  { key: "opened", label: "Opens", color: "#4f46e5", kind: "line" },
  { key: "clicked", label: "Clicks", color: "#059669", kind: "line" },
];

function TimelineCard({ report }: { report: BroadcastReport }) {
  const data = report.timeline.map((bucket, index) => ({ ...bucket, label: formatBucket(bucket.at, index < 72) }));
  return (
    <Card>
      <CardHeader title="Over time" description="Emails sent, and opens and clicks by people: hourly for the first three days, then daily." />
      <CardBody>
        {data.length === 0 ? (
          <p className="py-16 text-center text-sm text-zinc-500">Nothing has been sent yet.</p>
        ) : (
          <LazyTimelineChart data={data} series={SERIES} label="Sends, opens and clicks over time" />
        )}
      </CardBody>
    </Card>
  );
}

function ReportSkeleton() {
  return (
    <div role="status" aria-label="Loading the report" className="flex flex-col gap-6">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
        {Array.from({ length: 9 }, (_, i) => (
          <Skeleton key={i} className="h-24 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-80 rounded-xl" />
    </div>
  );
}

/** The Report tab of a broadcast: figures against the organization's average, time, links, funnel and recipients. */
export function BroadcastReportView({ broadcast }: { broadcast: Broadcast }) {
  const report = useBroadcastReport(broadcast.id, broadcast.status === "sending");
  const average = useBroadcastAverage();
  if (report.isPending) return <ReportSkeleton />;
  if (report.isError) return <ErrorState error={report.error} onRetry={() => void report.refetch()} title="Could not load the report" />;
  const data = report.data;
  if (data.totals.recipients === 0 && data.totals.sent === 0) {
    return (
      <Card>
        <EmptyState icon={BarChart3} title="No report yet">
          Once the broadcast is sent, this shows who received, opened and clicked it, hour by hour, with every link and the people behind each figure.
        </EmptyState>
      </Card>
    );
  }
  const machines = data.totals.machine_opens + data.totals.machine_clicks;
  return (
    <div className="flex flex-col gap-6">
      {broadcast.started_at && data.totals.open_tracked + data.totals.click_tracked > 0 && (
        <div className="-mb-2 flex justify-end">
          <ResendButton broadcast={broadcast} report={data} />
        </div>
      )}
      <ReportFigures report={data} average={average.data} />
      {machines > 0 && (
        <Callout tone="info" title="Machine activity left out">
          Opens: {formatCount(data.totals.machine_opens)}, clicks: {formatCount(data.totals.machine_clicks)}, from Apple Mail Privacy Protection, link scanners
          and other programs rather than people. They are counted here and in no other figure or rate.
        </Callout>
      )}
      <CountingHelp />
      {average.data && average.data.sent > 0 && average.data.broadcasts > 1 && (
        <p className="-mt-3 text-xs text-zinc-500">
          Averages: your {formatCount(average.data.broadcasts)} broadcasts of the last {average.data.days} days, {formatCount(average.data.sent)} emails.
        </p>
      )}
      {data.variants.length > 0 && <VariantsCard broadcast={broadcast} report={data} />}
      <TimelineCard report={data} />
      <LinksCard report={data} />
      {data.steps.length > 1 && <FunnelCard report={data} />}
      {data.inboxes.length > 0 && <InboxRepliesCard report={data} />}
      <RecipientsCard broadcastId={broadcast.id} report={data} />
    </div>
  );
}
