"use client";

import { ChevronRight } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/components/ui/date";
import { cn } from "@/lib/client/cn";
import type { WebhookDeliveryAttempt } from "./webhook-types";

const triggers = { automatic: "Automatic", test: "Test event", replay: "Replay" } as const;

export function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre
      aria-label={label}
      className="max-h-64 overflow-auto rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[12px] leading-relaxed break-all whitespace-pre-wrap text-zinc-800"
    >
      {children}
    </pre>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[12px]">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-zinc-500">{name}</dt>
          <dd className="break-all text-zinc-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One request of a delivery: when and why it was made, what was sent, what came back. The newest is open. */
export function DeliveryAttempt({ attempt, open }: { attempt: WebhookDeliveryAttempt; open: boolean }) {
  const { response } = attempt;
  return (
    <details open={open} className="group rounded-lg border border-zinc-200 bg-white" aria-label={`Attempt ${formatDateTime(attempt.attempted_at)}`}>
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-[13px]">
        <ChevronRight className="size-4 text-zinc-400 transition-transform group-open:rotate-90" aria-hidden />
        <Badge tone={attempt.trigger === "automatic" ? "neutral" : "brand"}>{triggers[attempt.trigger]}</Badge>
        <span className="text-zinc-600">{formatDateTime(attempt.attempted_at)}</span>
        <span className={cn("font-mono font-medium", attempt.succeeded ? "text-emerald-700" : "text-red-600")}>{response ? response.status : "No answer"}</span>
        <span className="text-zinc-500 tabular-nums">{attempt.duration_ms} ms</span>
      </summary>
      <div className="flex flex-col gap-3 border-t border-zinc-100 px-3 py-3">
        {attempt.error && <p className="text-[13px] text-red-700">{attempt.error}</p>}
        <section className="flex flex-col gap-1.5">
          <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Request</h4>
          <p className="font-mono text-[12px] break-all text-zinc-700">POST {attempt.request.url}</p>
          <Headers headers={attempt.request.headers} />
        </section>
        <section className="flex flex-col gap-1.5">
          <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Response</h4>
          {response ? (
            <>
              <Code label="Response body">{response.body || "(empty body)"}</Code>
              {response.body_truncated && <p className="text-xs text-zinc-500">Only the first 2 KB of the answer are kept.</p>}
            </>
          ) : (
            <p className="text-[13px] text-zinc-500">No answer came back.</p>
          )}
        </section>
      </div>
    </details>
  );
}
