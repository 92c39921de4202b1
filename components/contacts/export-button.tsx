"use client";

import { Download } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Progress } from "@/components/ui/progress";
import { toast } from "@/components/ui/toast";
import type { QueryValue } from "@/lib/client/api";
import { downloadContactsCsv } from "@/lib/client/download";

/** Exports the contacts the list shows (its filters) as CSV, with how far it got, and a way to stop. */
export function ExportButton({ query, total }: { query: Record<string, QueryValue>; total: number | undefined }) {
  const [rows, setRows] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    abort.current = new AbortController();
    setRows(0);
    try {
      await downloadContactsCsv(query, setRows, abort.current.signal);
      toast.success("Export ready", "The CSV file is in your downloads.");
    } catch (error) {
      if ((error as Error).name !== "AbortError") toast.error(error, "Could not export the contacts");
    } finally {
      setRows(null);
    }
  };

  return (
    <>
      <Button variant="secondary" onClick={start} disabled={rows !== null}>
        <Download aria-hidden />
        Export CSV
      </Button>
      <Dialog
        open={rows !== null}
        onOpenChange={(open) => !open && abort.current?.abort()}
        title="Exporting contacts"
        description={`${(rows ?? 0).toLocaleString()} ${total !== undefined ? `of ${total.toLocaleString()} ` : ""}contacts`}
        preventOutsideClose
        footer={
          <Button variant="secondary" onClick={() => abort.current?.abort()}>
            Cancel
          </Button>
        }
      >
        <Progress label="Export progress" value={total ? ((rows ?? 0) / total) * 100 : undefined} />
      </Dialog>
    </>
  );
}
