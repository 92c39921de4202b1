import type { HTMLAttributes } from "react";
import { cn } from "@/lib/client/cn";

const tones = {
  neutral: "bg-zinc-100 text-zinc-700 ring-zinc-500/15",
  brand: "bg-brand-50 text-brand-700 ring-brand-600/20",
  success: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  warning: "bg-amber-50 text-amber-800 ring-amber-600/25",
  danger: "bg-red-50 text-red-700 ring-red-600/20",
  info: "bg-sky-50 text-sky-700 ring-sky-600/20",
} as const;

export type BadgeTone = keyof typeof tones;

export function Badge({ tone = "neutral", dot = false, className, children, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone; dot?: boolean }) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        tones[tone],
        className,
      )}
      {...props}
    >
      {dot && <span className="size-1.5 rounded-full bg-current" aria-hidden />}
      {children}
    </span>
  );
}

// Statuses of every resource (broadcasts, emails, domains, invitations, deliveries) in one table,
// so the same word has the same color on every screen.
const statusTones: Record<string, BadgeTone> = {
  draft: "neutral",
  scheduled: "info",
  queued: "info",
  sending: "brand",
  pending: "warning",
  sent: "success",
  delivered: "success",
  verified: "success",
  accepted: "success",
  succeeded: "success",
  active: "success",
  received: "info",
  opened: "brand",
  clicked: "brand",
  cancelled: "neutral",
  expired: "neutral",
  revoked: "neutral",
  paused: "warning",
  inactive: "neutral",
  bounced: "danger",
  complained: "danger",
  failed: "danger",
  mismatch: "danger",
  hard_bounce: "danger",
  soft_bounce: "warning",
  complaint: "danger",
  unsubscribe: "neutral",
  manual: "neutral",
  archived: "neutral",
  waiting: "info",
  completed: "success",
  exited: "neutral",
};

/** A status word in its resource-independent color, with a leading dot. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge tone={statusTones[status] ?? "neutral"} dot className={cn("capitalize", className)}>
      {status.replaceAll("_", " ")}
    </Badge>
  );
}
