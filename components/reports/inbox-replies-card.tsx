import { Card, CardHeader } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatCount, formatRate } from "./format";

/** Replies per sending inbox: which mailbox's emails get answered (rotation spreads a broadcast over several). */
export function InboxRepliesCard({ report }: { report: BroadcastReport }) {
  return (
    <Card>
      <CardHeader title="Replies by inbox" description="Emails each inbox sent and how many were answered, automatic answers left out." />
      <Table aria-label="Replies by inbox">
        <TableHead>
          <tr>
            <TableHeaderCell>Inbox</TableHeaderCell>
            <TableHeaderCell className="text-right">Sent</TableHeaderCell>
            <TableHeaderCell className="text-right">Replied</TableHeaderCell>
            <TableHeaderCell className="text-right">Reply rate</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {report.inboxes.map((inbox) => (
            <TableRow key={inbox.inbox_id}>
              <TableCell className="font-medium text-zinc-900">{inbox.name}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(inbox.sent)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(inbox.replied)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatRate(inbox.reply_rate)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
