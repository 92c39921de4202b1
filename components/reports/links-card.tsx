import { Link2 } from "lucide-react";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate } from "./format";

/** People's clicks per link, most clicked first. */
export function LinksCard({ report }: { report: BroadcastReport }) {
  const clickers = report.totals.unique_clicked;
  return (
    <Card>
      <CardHeader title="Links" description="Clicks by people on each link of the email; scanners and bots left out." />
      {report.links.length === 0 ? (
        <EmptyState icon={Link2} title="No clicks yet">
          Each link of the email shows here once someone clicks it.
        </EmptyState>
      ) : (
        <Table aria-label="Clicked links">
          <TableHead>
            <tr>
              <TableHeaderCell>Link</TableHeaderCell>
              <TableHeaderCell className="text-right">Clicks</TableHeaderCell>
              <TableHeaderCell className="text-right">Unique clicks</TableHeaderCell>
              <TableHeaderCell className="text-right">Of clickers</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {report.links.map((link) => (
              <TableRow key={link.url}>
                <TableCell className="max-w-md">
                  <a href={link.url} target="_blank" rel="noopener noreferrer" className="block truncate text-brand-700 hover:underline" title={link.url}>
                    {link.url}
                  </a>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(link.clicks)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(link.unique_clicks)}</TableCell>
                <TableCell className="text-right text-zinc-500 tabular-nums">{clickers ? formatRate(link.unique_clicks / clickers) : "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
