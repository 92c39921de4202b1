"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, ArrowRight, CalendarClock, Pause, Play, Send, XCircle } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useEffect, useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime, RelativeTime } from "@/components/ui/date";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { useNow } from "@/components/ui/use-now";
import { ApiError, apiCall, errorMessage } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { canManage, useSessionInfo } from "@/lib/client/session";
import { counterShares, pausedReasonText, rate, type Broadcast } from "./broadcast-types";
import { useSendStatus, type SendStatus } from "./send-status";

// The pre-send checks dialog loads after the page: it kept the broadcast page over its first-load
// JavaScript ceiling (npm run js-budget).
const SendWithChecksDialog = dynamic(() => import("./presend-checks").then((m) => m.SendWithChecksDialog), { ssr: false });

type Action = "send" | "schedule" | "cancel" | "pause" | "resume";

function Stat({ label, value, share }: { label: string; value: number; share?: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="mt-0.5 text-[15px] font-semibold text-zinc-900 tabular-nums">
        {value.toLocaleString()}
        {share && <span className="ml-1.5 text-xs font-normal text-zinc-500">{share}</span>}
      </dd>
    </div>
  );
}

function Progression({ progress }: { progress: SendStatus["progress"] }) {
  const done = progress.sent + progress.bounced + progress.failed + progress.cancelled;
  const percent = progress.total ? (done / progress.total) * 100 : 0;
  return (
    <div className="flex flex-col gap-3">
      <div>
        <div className="mb-1.5 flex justify-between text-xs text-zinc-500">
          <span>
            {done.toLocaleString()} of {progress.total.toLocaleString()} processed
          </span>
          <span className="tabular-nums">{Math.round(percent)}%</span>
        </div>
        <Progress value={percent} label="Sending progress" />
      </div>
      <dl className="grid grid-cols-3 gap-x-2 gap-y-3">
        <Stat label="Queued" value={progress.queued} />
        <Stat label="Sent" value={progress.sent} />
        <Stat label="Bounced" value={progress.bounced} />
        <Stat label="Failed" value={progress.failed} />
        {progress.cancelled > 0 && <Stat label="Cancelled" value={progress.cancelled} />}
      </dl>
    </div>
  );
}

const confirmations: Record<Action, { title: string; label: string; destructive: boolean }> = {
  send: { title: "Send this broadcast now?", label: "Send now", destructive: false },
  schedule: { title: "Schedule this broadcast?", label: "Schedule it", destructive: false },
  cancel: { title: "Cancel this broadcast?", label: "Cancel broadcast", destructive: true },
  pause: { title: "Pause this broadcast?", label: "Pause sending", destructive: false },
  resume: { title: "Resume this broadcast?", label: "Resume sending", destructive: false },
};

/** The broadcast's other state changes, by the action that asks for them. */
const stateChanges = { cancel: "POST /v1/broadcasts/{id}/cancel", pause: "POST /v1/broadcasts/{id}/pause", resume: "POST /v1/broadcasts/{id}/resume" } as const;

const done: Record<Action, string> = {
  send: "Sending started",
  schedule: "Broadcast scheduled",
  cancel: "Broadcast cancelled",
  pause: "Broadcast paused",
  resume: "Sending resumed",
};

/** Status, progress, "why is this not sending", and the send, schedule and cancel buttons. */
export function SendPanel({
  broadcast,
  dirty,
  audience,
  onRefused,
}: {
  broadcast: Broadcast;
  dirty: boolean;
  audience: string;
  onRefused: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const status = useSendStatus(broadcast);
  // The action stays set while the dialog closes, so its words do not vanish mid-animation.
  const [action, setAction] = useState<Action>("send");
  const [confirmOpen, setConfirmOpen] = useState(false);
  const confirm = (next: Action) => {
    setAction(next);
    setConfirmOpen(true);
  };
  const liveStatus = status.data?.status;

  // The engine moves the broadcast along (scheduled → sending → sent); reload it when it does.
  useEffect(() => {
    if (liveStatus && liveStatus !== broadcast.status) void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.detail(broadcast.id), exact: true });
  }, [liveStatus, broadcast.status, broadcast.id, queryClient]);

  const act = useMutation({
    mutationFn: (chosen: Action) =>
      chosen === "send" || chosen === "schedule"
        ? apiCall("POST /v1/broadcasts/{id}/send", {
            params: { id: broadcast.id },
            body: chosen === "schedule" ? { scheduled_at: broadcast.scheduled_at } : {},
          })
        : apiCall(stateChanges[chosen], { params: { id: broadcast.id } }),
    onSuccess: (_data, chosen) => {
      toast.success(done[chosen], chosen === "schedule" ? `It goes out ${formatDateTime(broadcast.scheduled_at)}.` : undefined);
    },
    onError: (error, chosen) => {
      const title = `Could not ${chosen} the broadcast`;
      if (error instanceof ApiError && error.details.length) {
        // BROADCAST_NOT_SENDABLE names each missing field; the editor marks them too.
        toast.error(new Error(`Fix the marked fields first: ${error.details.map((detail) => detail.message).join("; ")}.`), title);
        onRefused(error);
      } else toast.error(error, title);
    },
    // Not awaited: mutateAsync would wait for every refetch under the broadcast's key, the pre-send checks'
    // SpamAssassin run included, and the send dialog (which hides the editor's marked fields) would stay open.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.detail(broadcast.id) });
    },
  });

  const now = useNow();
  const scheduledFuture = Boolean(broadcast.scheduled_at && new Date(broadcast.scheduled_at).getTime() > now);
  const canSend = broadcast.status === "draft" || broadcast.status === "scheduled";
  const canSchedule = broadcast.status === "draft" || broadcast.status === "scheduled";
  const canCancel = broadcast.status === "scheduled" || broadcast.status === "sending" || broadcast.status === "paused";
  const canPause = broadcast.status === "sending";
  const { data: session } = useSessionInfo();
  // What a circuit breaker paused, only an owner or admin may resume (the API answers a member 403).
  const breakerPaused = broadcast.status === "paused" && broadcast.paused_reason !== null && broadcast.paused_reason !== "manual";
  const resumeForbidden = breakerPaused && !canManage(session?.role);
  const canResume = broadcast.status === "paused" && !resumeForbidden;
  const engaged = broadcast.status !== "draft" && broadcast.status !== "scheduled";
  const shares = counterShares(broadcast);
  // Being a draft, sent, cancelled or failed is what the badge, the banner and the buttons already say.
  const reasons = (status.data?.reasons ?? []).filter(
    (reason) => !["DRAFT", "SENT", "CANCELLED", "FAILED"].includes(reason.code) && !reason.code.startsWith("PAUSED"),
  );

  const description: Record<Action, string> = {
    send: `It goes to ${audience} right away, at the chosen sending speed. You can cancel while it is sending; emails already sent cannot be recalled.`,
    schedule: `It goes to ${audience} on ${formatDateTime(broadcast.scheduled_at)}. You can still edit, reschedule or cancel it until then.`,
    pause: "Nothing more goes out until you resume it; emails already on their way to a mail server still arrive. Follow-up steps wait too.",
    resume: "It continues where it stopped. Recipients who already got it do not get it again.",
    cancel:
      broadcast.status === "sending" || broadcast.status === "paused"
        ? "Emails not yet sent will not go out, and follow-up steps stop. Emails already sent cannot be recalled."
        : "Nothing goes out, and a cancelled broadcast cannot be sent again. To send later instead, pick a new time and reschedule.",
  };

  return (
    <Card>
      <CardHeader title="Sending" actions={<StatusBadge status={liveStatus ?? broadcast.status} />} />
      <CardBody className="flex flex-col gap-4">
        {broadcast.status === "scheduled" && broadcast.scheduled_at && (
          <p className="flex items-center gap-2 text-sm text-zinc-700">
            <CalendarClock className="size-4 text-sky-600" aria-hidden />
            Goes out {formatDateTime(broadcast.scheduled_at)}
          </p>
        )}
        {broadcast.status === "failed" && broadcast.failure_reason && (
          <Callout tone="danger" title="Sending failed">
            {broadcast.failure_reason}
          </Callout>
        )}
        {broadcast.status === "paused" && (
          <Callout tone="warning" title="Paused">
            {pausedReasonText(broadcast)}
            {broadcast.paused_at && (
              <>
                {" "}
                Paused <RelativeTime value={broadcast.paused_at} />.
              </>
            )}
          </Callout>
        )}
        {status.isPending ? (
          <div className="flex flex-col gap-2" aria-hidden>
            <Skeleton className="h-2 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : status.isError ? (
          <div className="flex items-start justify-between gap-3 text-sm text-zinc-600" role="alert">
            <span>Could not load the sending status: {errorMessage(status.error)}</span>
            <Button variant="secondary" size="sm" onClick={() => void status.refetch()}>
              Retry
            </Button>
          </div>
        ) : status.data.progress.total > 0 ? (
          <Progression progress={status.data.progress} />
        ) : (
          broadcast.status === "draft" &&
          reasons.length === 0 && <p className="text-sm text-zinc-600">Not sent yet. When the details look right, send it now or schedule it for later.</p>
        )}
        {reasons.length > 0 && (
          <div className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5">
            <p className="text-sm font-medium text-amber-900">{broadcast.status === "draft" ? "Before this can send" : "Why this is not sending"}</p>
            <ul className="mt-1.5 flex flex-col gap-1.5">
              {reasons.map((reason, index) => (
                <li key={`${reason.code}-${index}`} className="flex gap-2 text-[13px] text-amber-900">
                  <AlertTriangle className="mt-0.5 size-3.5 shrink-0 text-amber-600" aria-hidden />
                  <span>
                    {reason.message}
                    {reason.resumes_at && <span className="text-amber-700"> Resumes {formatDateTime(reason.resumes_at)}.</span>}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {(broadcast.completed_at || broadcast.started_at) && (
          <p className="text-[13px] text-zinc-600">
            {broadcast.completed_at ? "Finished" : "Started"} <RelativeTime value={broadcast.completed_at ?? broadcast.started_at} />
            {broadcast.total_recipients > 0 && ` · ${broadcast.total_recipients.toLocaleString()} recipients`}
          </p>
        )}
        {engaged && (
          <dl className="grid grid-cols-2 gap-3 border-t border-zinc-100 pt-4">
            <Stat label="Delivered" value={broadcast.delivered_count} share={shares.delivered} />
            <Stat label="Opened" value={broadcast.opened_count} share={shares.opened} />
            <Stat label="Clicked" value={broadcast.clicked_count} share={shares.clicked} />
            <Stat label="Hard bounces" value={broadcast.bounced_count} share={rate(broadcast.bounced_count, broadcast.sent_count)} />
            <Stat label="Soft bounces" value={broadcast.soft_bounced_count} share={rate(broadcast.soft_bounced_count, broadcast.sent_count)} />
            <Stat label="Complaints" value={broadcast.complained_count} share={rate(broadcast.complained_count, broadcast.sent_count)} />
            <Stat label="Replied" value={broadcast.replied_count} share={rate(broadcast.replied_count, broadcast.sent_count)} />
            <Stat label="Unsubscribed" value={broadcast.unsubscribed_count} share={rate(broadcast.unsubscribed_count, broadcast.sent_count)} />
          </dl>
        )}
        {engaged && (
          <Link href={`/emails?broadcast_id=${broadcast.id}`} className="inline-flex items-center gap-1 text-sm font-medium text-brand-600 hover:underline">
            View its emails
            <ArrowRight className="size-3.5" aria-hidden />
          </Link>
        )}
      </CardBody>
      {(canSend || canCancel || canPause || canResume || resumeForbidden) && (
        <CardFooter className="flex-col items-stretch gap-2">
          {dirty && canSend && <p className="text-xs text-amber-700">Save your changes before sending.</p>}
          {canSchedule && !scheduledFuture && <p className="text-xs text-zinc-500">To schedule, pick a future time under Delivery and save.</p>}
          {resumeForbidden && <p className="text-xs text-zinc-500">It paused itself to protect your sending reputation: an owner or admin can resume it.</p>}
          <div className="flex flex-wrap justify-end gap-2">
            {canCancel && (
              <Button variant="secondary" onClick={() => confirm("cancel")} disabled={act.isPending}>
                <XCircle aria-hidden />
                Cancel
              </Button>
            )}
            {canPause && (
              <Button variant="secondary" onClick={() => confirm("pause")} disabled={act.isPending}>
                <Pause aria-hidden />
                Pause
              </Button>
            )}
            {canResume && (
              <Button onClick={() => confirm("resume")} disabled={act.isPending}>
                <Play aria-hidden />
                Resume
              </Button>
            )}
            {canSchedule && (
              <Button variant="secondary" onClick={() => confirm("schedule")} disabled={dirty || !scheduledFuture || act.isPending}>
                <CalendarClock aria-hidden />
                {broadcast.status === "scheduled" ? "Reschedule" : "Schedule"}
              </Button>
            )}
            {canSend && (
              <Button onClick={() => confirm("send")} disabled={dirty || act.isPending}>
                <Send aria-hidden />
                Send now
              </Button>
            )}
          </div>
        </CardFooter>
      )}
      {/* The pre-send checks belong to sending; pausing, resuming and cancelling only confirm. */}
      <SendWithChecksDialog
        open={confirmOpen && (action === "send" || action === "schedule")}
        onOpenChange={setConfirmOpen}
        broadcastId={broadcast.id}
        title={confirmations[action].title}
        description={description[action]}
        confirmLabel={confirmations[action].label}
        onConfirm={async () => {
          try {
            await act.mutateAsync(action);
          } catch (error) {
            if (!(error instanceof ApiError && error.details.length)) throw error;
          }
        }}
      />
      <ConfirmDialog
        open={confirmOpen && action !== "send" && action !== "schedule"}
        onOpenChange={setConfirmOpen}
        title={confirmations[action].title}
        description={description[action]}
        confirmLabel={confirmations[action].label}
        cancelLabel={action === "cancel" ? "Keep it" : "Not yet"}
        destructive={confirmations[action].destructive}
        onConfirm={async () => {
          try {
            await act.mutateAsync(action);
          } catch (error) {
            // Refused with reasons per field: close, so the marked fields are in view. Otherwise stay open to retry.
            if (!(error instanceof ApiError && error.details.length)) throw error;
          }
        }}
      />
    </Card>
  );
}
