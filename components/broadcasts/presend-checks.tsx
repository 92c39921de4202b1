"use client";

import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, MinusCircle, XCircle } from "lucide-react";
import { useState } from "react";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage, apiCall } from "@/lib/client/api";
import { cn } from "@/lib/client/cn";
import { queryKeys } from "@/lib/client/query-keys";
import type { presendChecks } from "@/lib/schemas/presend-checks";

type Checks = z.infer<typeof presendChecks>;

const icons = {
  pass: { icon: CheckCircle2, className: "text-emerald-600", label: "Passed" },
  warning: { icon: AlertTriangle, className: "text-amber-600", label: "Warning" },
  error: { icon: XCircle, className: "text-red-600", label: "Error" },
  skipped: { icon: MinusCircle, className: "text-zinc-400", label: "Not checked" },
} as const;

/** GET /v1/broadcasts/{id}/checks (of a step with `stepId`), fetched afresh each time the dialog opens. */
function usePresendChecks(broadcastId: string, enabled: boolean, stepId?: string) {
  return useQuery({
    queryKey: stepId ? queryKeys.broadcasts.stepChecks(broadcastId, stepId) : queryKeys.broadcasts.checks(broadcastId),
    queryFn: () => apiCall("GET /v1/broadcasts/{id}/checks", { params: { id: broadcastId }, query: { step_id: stepId } }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

function ChecksList({ checks }: { checks: Checks }) {
  // Problems first, in the order the API gives them.
  const ordered = [...checks.checks].sort(
    (a, b) => ["error", "warning", "skipped", "pass"].indexOf(a.status) - ["error", "warning", "skipped", "pass"].indexOf(b.status),
  );
  return (
    <ul aria-label="Pre-send checks" className="flex flex-col divide-y divide-zinc-100 rounded-lg border border-zinc-200">
      {ordered.map((check) => {
        const { icon: Icon, className, label } = icons[check.status];
        return (
          <li key={check.id} className="flex gap-2.5 px-3 py-2">
            <Icon className={cn("mt-0.5 size-4 shrink-0", className)} aria-label={label} />
            <div className="min-w-0 text-sm">
              <p className="font-medium text-zinc-900">{check.title}</p>
              <p className="text-zinc-600">{check.message}</p>
              {check.items.length > 0 && check.status !== "pass" && (
                <ul className="mt-1 list-disc pl-4 text-[13px] break-all text-zinc-500">
                  {check.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function ChecksBody({ checks, blocking }: { checks: ReturnType<typeof usePresendChecks>; blocking: boolean }) {
  const data = checks.data;
  const blocked = Boolean(data && !data.ok);
  const warned = Boolean(data && data.ok && data.warnings > 0);
  return (
    <div className="flex flex-col gap-3">
      {checks.isPending && (
        <div role="status" aria-label="Running the pre-send checks" className="flex flex-col gap-2">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      )}
      {checks.isError && (
        <p role="alert" className="text-sm text-red-600">
          Could not run the checks: {errorMessage(checks.error)}
        </p>
      )}
      {data && (
        <>
          <p className={cn("text-sm font-medium", blocked ? "text-red-700" : warned ? "text-amber-800" : "text-emerald-700")}>
            {blocked
              ? `Fix ${data.errors} error${data.errors === 1 ? "" : "s"} ${blocking ? "before sending" : "before this step goes out"}.`
              : warned
                ? `${data.warnings} warning${data.warnings === 1 ? "" : "s"}${blocking ? ": you can send anyway" : ""}.`
                : "Every check passed."}
          </p>
          <ChecksList checks={data} />
        </>
      )}
    </div>
  );
}

/** A follow-up step's checks, to read: a step goes out on its own schedule, so nothing is confirmed here. */
export function StepChecksDialog({
  open,
  onOpenChange,
  broadcastId,
  stepId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  broadcastId: string;
  stepId: string;
}) {
  const checks = usePresendChecks(broadcastId, open, stepId);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Checks of this step"
      description="The pre-send checks of the first email, for this follow-up."
      size="lg"
    >
      <ChecksBody checks={checks} blocking={false} />
    </Dialog>
  );
}

/**
 * Send now or schedule, after the pre-send checks: an error blocks it, warnings need an explicit
 * "send anyway".
 */
export function SendWithChecksDialog({
  open,
  onOpenChange,
  broadcastId,
  title,
  description,
  confirmLabel,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  broadcastId: string;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
}) {
  const checks = usePresendChecks(broadcastId, open);
  const [busy, setBusy] = useState(false);
  const data = checks.data;
  const blocked = Boolean(data && !data.ok);
  const warned = Boolean(data && data.ok && data.warnings > 0);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // The caller reports the failure; the dialog stays open to retry.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      description={description}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            Not yet
          </Button>
          <Button variant={warned ? "danger" : "primary"} onClick={() => void confirm()} loading={busy} disabled={!data || blocked}>
            {warned ? `${confirmLabel} anyway` : confirmLabel}
          </Button>
        </>
      }
    >
      <ChecksBody checks={checks} blocking />
    </Dialog>
  );
}
