import { Card, CardHeader } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate, NOT_TRACKED } from "./format";

/** The sequence, step by step: how many each step reached and what they did. */
export function FunnelCard({ report }: { report: BroadcastReport }) {
  return (
    <Card>
      <CardHeader title="Sequence funnel" description="The first email, then each follow-up: who it reached and what they did." />
      <Table aria-label="Sequence funnel">
        <TableHead>
          <tr>
            <TableHeaderCell>Step</TableHeaderCell>
            <TableHeaderCell className="text-right">Sent</TableHeaderCell>
            <TableHeaderCell className="text-right">Opened</TableHeaderCell>
            <TableHeaderCell className="text-right">Clicked</TableHeaderCell>
            <TableHeaderCell className="text-right">Replied</TableHeaderCell>
            <TableHeaderCell className="text-right">Bounced</TableHeaderCell>
            <TableHeaderCell className="text-right">Unsubscribed</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {report.steps.map((step) => (
            <TableRow key={step.position}>
              <TableCell className="font-medium text-zinc-900">{step.position === 0 ? "First email" : `Follow-up ${step.position}`}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(step.totals.sent)}</TableCell>
              <TableCell className="text-right tabular-nums">
                {formatCount(step.totals.unique_opened)}{" "}
                <span className="text-xs text-zinc-500">{step.rates.open === null ? NOT_TRACKED : formatRate(step.rates.open)}</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {formatCount(step.totals.unique_clicked)}{" "}
                <span className="text-xs text-zinc-500">{step.rates.click === null ? NOT_TRACKED : formatRate(step.rates.click)}</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {formatCount(step.totals.replied)} <span className="text-xs text-zinc-500">{formatRate(step.rates.reply)}</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(step.totals.bounced)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(step.totals.unsubscribed)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
