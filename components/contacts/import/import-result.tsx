"use client";

import { CheckCircle2, Download, FileUp, Users } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { ImportContactsResult } from "@/lib/schemas/contacts";
import { importErrorsCsv } from "./import-errors-csv";

const SHOWN_ERRORS = 200;

function downloadErrors(result: ImportContactsResult, fileName: string) {
  const csv = importErrorsCsv(result.errors);
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${fileName.replace(/\.[^.]+$/, "")}-import-errors.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Stat({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 px-4 py-3">
      <dt className="text-[13px] text-zinc-500">{label}</dt>
      <dd className={`mt-1 text-2xl font-semibold tabular-nums ${tone}`}>{value.toLocaleString()}</dd>
    </div>
  );
}

const flagLabels = { disposable: "Disposable", role: "Role account" } as const;

/** The file's address hygiene: how many rows were invalid, disposable or role accounts, and the first of the flagged. */
function FlaggedCard({ flagged }: { flagged: ImportContactsResult["flagged"] }) {
  const total = flagged.disposable + flagged.role;
  if (total === 0 && flagged.invalid === 0) return null;
  return (
    <Card>
      <CardHeader
        title="Address check"
        description={
          flagged.skipped > 0
            ? `${flagged.skipped.toLocaleString()} flagged row${flagged.skipped === 1 ? " was" : "s were"} left out, as you asked.`
            : "Flagged rows were imported. Import again with the options under Risky addresses to leave them out."
        }
      />
      <CardBody className="flex flex-col gap-4">
        <dl className="grid gap-3 sm:grid-cols-3">
          <Stat label="Invalid addresses" value={flagged.invalid} tone={flagged.invalid ? "text-red-700" : "text-zinc-900"} />
          <Stat label="Disposable" value={flagged.disposable} tone={flagged.disposable ? "text-amber-700" : "text-zinc-900"} />
          <Stat label="Role accounts" value={flagged.role} tone={flagged.role ? "text-amber-700" : "text-zinc-900"} />
        </dl>
      </CardBody>
      {flagged.rows.length > 0 && (
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell className="w-20">Row</TableHeaderCell>
              <TableHeaderCell>Email</TableHeaderCell>
              <TableHeaderCell>Flag</TableHeaderCell>
              <TableHeaderCell>Imported</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {flagged.rows.slice(0, SHOWN_ERRORS).map((row) => (
              <TableRow key={row.row}>
                <TableCell className="tabular-nums">{row.row}</TableCell>
                <TableCell className="max-w-64 truncate">{row.email}</TableCell>
                <TableCell>
                  <span className="flex gap-1.5">
                    {row.flags.map((flag) => (
                      <Badge key={flag} tone="warning">
                        {flagLabels[flag]}
                      </Badge>
                    ))}
                  </span>
                </TableCell>
                <TableCell>{row.skipped ? "No, skipped" : "Yes"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

/** What the import did, and each row it could not take, downloadable as CSV. */
export function ImportResult({
  result,
  fileName,
  segmentId,
  onAgain,
}: {
  result: ImportContactsResult;
  fileName: string;
  segmentId?: string;
  onAgain: () => void;
}) {
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              <CheckCircle2 className="size-5 text-emerald-600" aria-hidden />
              Import finished
            </span>
          }
          description={fileName}
          actions={
            <>
              <Button variant="secondary" onClick={onAgain}>
                <FileUp aria-hidden />
                Import another file
              </Button>
              <Button asChild>
                <Link href={segmentId ? `/contacts?segment_id=${segmentId}` : "/contacts"}>
                  <Users aria-hidden />
                  View contacts
                </Link>
              </Button>
            </>
          }
        />
        <CardBody>
          <dl className="grid gap-3 sm:grid-cols-3">
            <Stat label="Created" value={result.created} tone="text-emerald-700" />
            <Stat label="Updated" value={result.updated} tone="text-sky-700" />
            <Stat label="Skipped" value={result.skipped} tone={result.skipped ? "text-amber-700" : "text-zinc-900"} />
          </dl>
        </CardBody>
      </Card>
      <FlaggedCard flagged={result.flagged} />
      {result.errors_total > 0 && (
        <Card>
          <CardHeader
            title={`${result.errors_total.toLocaleString()} row${result.errors_total === 1 ? "" : "s"} not imported`}
            description="Row numbers are as a spreadsheet shows them: the header is row 1. Fix them in the file and import it again."
            actions={
              <Button variant="secondary" onClick={() => downloadErrors(result, fileName)}>
                <Download aria-hidden />
                Download as CSV
              </Button>
            }
          />
          <Table>
            <TableHead>
              <tr>
                <TableHeaderCell className="w-20">Row</TableHeaderCell>
                <TableHeaderCell>Email</TableHeaderCell>
                <TableHeaderCell>Problem</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {result.errors.slice(0, SHOWN_ERRORS).map((error) => (
                <TableRow key={`${error.row}-${error.email}`}>
                  <TableCell className="tabular-nums">{error.row}</TableCell>
                  <TableCell className="max-w-64 truncate">{error.email || <span className="text-zinc-400">empty</span>}</TableCell>
                  <TableCell>{error.error}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {result.errors_total > SHOWN_ERRORS && (
            <p className="border-t border-zinc-100 px-5 py-3 text-sm text-zinc-500">
              Showing the first {SHOWN_ERRORS} of {result.errors_total.toLocaleString()}.{" "}
              {result.errors_total > result.errors.length
                ? `The CSV lists the first ${result.errors.length.toLocaleString()}; fix those and import the file again to see the rest.`
                : "Download the CSV for all of them."}
            </p>
          )}
        </Card>
      )}
    </div>
  );
}
