import type { BroadcastAverage, BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate, NOT_REPORTED, NOT_TRACKED } from "./format";

/** Says which emails a rate is of, when not all that were sent could show it. */
const ofTracked = (tracked: number, sent: number) => (tracked < sent ? `, of ${formatCount(tracked)} tracked` : "");
import { StatTile } from "./stat-tile";

/** The headline figures of a report, each rate beside the organization's average when there is one. */
export function ReportFigures({ report, average }: { report: BroadcastReport; average?: BroadcastAverage }) {
  const { totals, rates } = report;
  // Compared only with other broadcasts too: a first broadcast is its own average.
  const avg = average && average.sent > 0 && average.broadcasts > 1 ? average.rates : undefined;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
      <StatTile label="Sent" value={formatCount(totals.sent)} detail={`to ${formatCount(totals.recipients)} recipients`} />
      <StatTile
        label="Delivered"
        value={rates.delivery === null ? NOT_REPORTED : formatRate(rates.delivery)}
        detail={
          rates.delivery === null
            ? "None of these emails could get a delivery report"
            : `${formatCount(totals.delivered)} of ${formatCount(totals.delivery_reportable)} that could report it`
        }
        rate={rates.delivery ?? undefined}
        average={avg?.delivery ?? undefined}
      />
      <StatTile
        label="Opened"
        value={rates.open === null ? NOT_TRACKED : formatRate(rates.open)}
        detail={
          rates.open === null
            ? "Sent without the open pixel"
            : `${formatCount(totals.unique_opened)} people · ${formatCount(totals.opened)} opens${ofTracked(totals.open_tracked, totals.sent)}`
        }
        rate={rates.open ?? undefined}
        average={avg?.open ?? undefined}
      />
      <StatTile
        label="Clicked"
        value={rates.click === null ? NOT_TRACKED : formatRate(rates.click)}
        detail={
          rates.click === null
            ? "Sent without tracked links"
            : `${formatCount(totals.unique_clicked)} people · ${formatCount(totals.clicked)} clicks${ofTracked(totals.click_tracked, totals.sent)}`
        }
        rate={rates.click ?? undefined}
        average={avg?.click ?? undefined}
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
