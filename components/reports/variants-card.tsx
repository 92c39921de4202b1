import { FlaskConical, Trophy } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatDateTime } from "@/components/ui/date";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { Broadcast } from "@/components/broadcasts/broadcast-types";
import { significanceOf } from "@/lib/domain/ab-test";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate } from "./format";

const name = (index: number) => `Variant ${"ABCD"[index]}`;
const rate = (part: number, whole: number) => (whole ? formatRate(part / whole) : "—");

/** The A/B test's variants side by side, on their test share, with how much the lead means. */
export function VariantsCard({ broadcast, report }: { broadcast: Broadcast; report: BroadcastReport }) {
  const metric = broadcast.ab_test?.metric ?? "unique_opens";
  const significance = significanceOf(report.variants, metric, name);
  const waiting = broadcast.ab_winner_index === null && broadcast.ab_decide_at;
  return (
    <Card>
      <CardHeader
        title="A/B test"
        description={`Each variant's test share, opens and clicks by people. The winner is the variant ${
          metric === "unique_opens" ? "opened" : "clicked"
        } by the largest share of its recipients.`}
      />
      <Table aria-label="Variants">
        <TableHead>
          <tr>
            <TableHeaderCell>Variant</TableHeaderCell>
            <TableHeaderCell className="text-right">Recipients</TableHeaderCell>
            <TableHeaderCell className="text-right">Opened</TableHeaderCell>
            <TableHeaderCell className="text-right">Clicked</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {report.variants.map((variant) => (
            <TableRow key={variant.index}>
              <TableCell className="max-w-md">
                <span className="flex items-center gap-2 font-medium text-zinc-900">
                  {name(variant.index)}
                  {variant.winner && (
                    <Badge tone="success">
                      <Trophy className="size-3" aria-hidden />
                      Winner
                    </Badge>
                  )}
                </span>
                <span className="block truncate text-xs text-zinc-500" title={variant.subject}>
                  {variant.subject}
                </span>
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(variant.recipients)}</TableCell>
              <TableCell className="text-right tabular-nums">
                {formatCount(variant.unique_opened)} <span className="text-zinc-500">({rate(variant.unique_opened, variant.recipients)})</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {formatCount(variant.unique_clicked)} <span className="text-zinc-500">({rate(variant.unique_clicked, variant.recipients)})</span>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <CardBody className="flex flex-col gap-1 border-t border-zinc-100 text-sm text-zinc-700">
        {waiting && <p>The winner is chosen at {formatDateTime(broadcast.ab_decide_at)}, then sent to the rest of the audience.</p>}
        {significance && (
          <p className="flex items-start gap-2">
            <FlaskConical className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-hidden />
            <span>{significance.note}</span>
          </p>
        )}
      </CardBody>
    </Card>
  );
}
