"use client";

import { AlertOctagon, CheckCheck, Flag, MousePointerClick, Eye, Send, type LucideIcon } from "lucide-react";
import { formatDateTime } from "@/components/ui/date";
import { Tooltip } from "@/components/ui/tooltip";
import { cn } from "@/lib/client/cn";
import { emailEvents, type Email, type EmailEventField } from "./email-types";

const look: Record<EmailEventField, { icon: LucideIcon; on: string }> = {
  sent_at: { icon: Send, on: "bg-zinc-800 text-white" },
  delivered_at: { icon: CheckCheck, on: "bg-emerald-500 text-white" },
  opened_at: { icon: Eye, on: "bg-brand-600 text-white" },
  clicked_at: { icon: MousePointerClick, on: "bg-brand-600 text-white" },
  bounced_at: { icon: AlertOctagon, on: "bg-red-500 text-white" },
  complained_at: { icon: Flag, on: "bg-red-500 text-white" },
};

/**
 * The six engagement moments of an email as a compact strip: filled when it happened, with the
 * exact time on hover; screen readers get the same as text.
 */
export function EventIcons({ email }: { email: Pick<Email, EmailEventField> }) {
  const happened = emailEvents.filter((event) => email[event.field]);
  return (
    <div className="flex items-center gap-1">
      {emailEvents.map((event) => {
        const at = email[event.field];
        const { icon: Icon, on } = look[event.field];
        return (
          <Tooltip key={event.field} content={at ? `${event.label} · ${formatDateTime(at)}` : `Not ${event.label.toLowerCase()}`}>
            <span aria-hidden className={cn("flex size-5 items-center justify-center rounded-full", at ? on : "bg-zinc-100 text-zinc-300")}>
              <Icon className="size-3" strokeWidth={2.5} />
            </span>
          </Tooltip>
        );
      })}
      <span className="sr-only">
        {happened.length ? happened.map((event) => `${event.label} ${formatDateTime(email[event.field])}`).join(", ") : "No activity yet"}
      </span>
    </div>
  );
}
