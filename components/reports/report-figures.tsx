import type { BroadcastAverage, BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate } from "./format";
import { StatTile } from "./stat-tile";

/** The headline figures of a report, each rate beside the organization's average when there is one. */
export function ReportFigures({ report, average }: { report: BroadcastReport; average?: BroadcastAverage }) {
  const { totals, rates } = report;
  // Compared only with other broadcasts too: a first broadcast is its own average.
  const avg = average && average.sent > 0 && average.broadcasts > 1 ? average.rates : undefined;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
      <StatTile label="Sent" value={formatCount(totals.sent)} detail={`to ${formatCount(totals.recipients)} recipients`} />
      {rates.delivery === null ? (
        <StatTile label="Delivered" value="Not reported" detail="Sent through inboxes, which send no delivery reports" />
      ) : (
        <StatTile
          label="Delivered"
          value={formatRate(rates.delivery)}
          detail={`${formatCount(totals.delivered)} of ${formatCount(totals.delivery_reportable)} that can report it`}
          rate={rates.delivery}
          average={avg?.delivery ?? undefined}
        />
      )}
      <StatTile
        label="Opened"
        value={formatRate(rates.open)}
        detail={`${formatCount(totals.unique_opened)} people · ${formatCount(totals.opened)} opens`}
        rate={rates.open}
        average={avg?.open}
      />
      <StatTile
        label="Clicked"
        value={formatRate(rates.click)}
        detail={`${formatCount(totals.unique_clicked)} people · ${formatCount(totals.clicked)} clicks`}
        rate={rates.click}
        average={avg?.click}
      />
      <StatTile label="Replied" value={formatRate(rates.reply)} detail={`${formatCount(totals.replied)} emails answered`} />
      <StatTile
        label="Bounced"
        value={formatRate(rates.bounce)}
        detail={formatCount(totals.bounced)}
        rate={rates.bounce}
        average={avg?.bounce}
        higherIsBetter={false}
      />
      <StatTile
        label="Complaints"
        value={formatRate(rates.complaint)}
        detail={formatCount(totals.complained)}
        rate={rates.complaint}
        average={avg?.complaint}
        higherIsBetter={false}
      />
      <StatTile
        label="Unsubscribed"
        value={formatRate(rates.unsubscribe)}
        detail={formatCount(totals.unsubscribed)}
        rate={rates.unsubscribe}
        average={avg?.unsubscribe}
        higherIsBetter={false}
      />
      <StatTile
        label="Machine activity"
        value={formatCount(totals.machine_opens + totals.machine_clicks)}
        detail={`${formatCount(totals.machine_opens)} opens · ${formatCount(totals.machine_clicks)} clicks, left out of the rates`}
      />
    </div>
  );
}
