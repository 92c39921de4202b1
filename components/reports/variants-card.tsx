import { FlaskConical, Trophy } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatDateTime } from "@/components/ui/date";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { Broadcast } from "@/components/broadcasts/broadcast-types";
import { significanceOf } from "@/lib/domain/ab-test";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate, NOT_TRACKED } from "./format";

const name = (index: number) => `Variant ${"ABCD"[index]}`;

/** A variant's people and their share of the emails that could show it (the report's own denominators), or "Not tracked". */
function Engaged({ people, rate, tracked, recipients }: { people: number; rate: number | null; tracked: number; recipients: number }) {
  if (rate === null) return <span className="text-zinc-500">{NOT_TRACKED}</span>;
  return (
    <>
      {formatCount(people)} <span className="text-zinc-500">({formatRate(rate)})</span>
      {tracked < recipients && <span className="block text-xs text-zinc-500">of {formatCount(tracked)} tracked</span>}
    </>
  );
}

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
        } by the largest share of its recipients whose email could show it (accepted, with the pixel or a tracked link).`}
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
                <Engaged people={variant.unique_opened} rate={variant.open_rate} tracked={variant.open_tracked} recipients={variant.recipients} />
              </TableCell>
              <TableCell className="text-right tabular-nums">
                <Engaged people={variant.unique_clicked} rate={variant.click_rate} tracked={variant.click_tracked} recipients={variant.recipients} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <CardBody className="flex flex-col gap-1 border-t border-zinc-100 text-sm text-zinc-700">
        {waiting && (
          <p>
            The winner is chosen once the test share has all gone out and had its wait (at {formatDateTime(broadcast.ab_decide_at)} at the earliest), then sent
            to the rest of the audience.
          </p>
        )}
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
