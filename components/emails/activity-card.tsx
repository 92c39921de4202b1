"use client";

import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatDateTime } from "@/components/ui/date";
import { cn } from "@/lib/client/cn";
import { emailEvents, type EmailDetail } from "./email-types";

const eventDot: Record<string, string> = {
  sent: "bg-zinc-800",
  delivered: "bg-emerald-500",
  opened: "bg-brand-600",
  clicked: "bg-brand-600",
  replied: "bg-sky-500",
  received: "bg-sky-500",
  bounced: "bg-red-500",
  soft_bounced: "bg-amber-500",
  complained: "bg-red-500",
  failed: "bg-red-500",
  unsubscribed: "bg-amber-500",
};

function describe(data: Record<string, unknown>): string {
  const parts = Object.entries(data)
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .slice(0, 3)
    .map(([key, value]) => `${key.replaceAll("_", " ")}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  return parts.join(" · ");
}

/** When each engagement moment happened, and every recorded event in order. */
export function ActivityCard({ email }: { email: EmailDetail }) {
  return (
    <Card>
      <CardHeader title="Activity" />
      <CardBody className="flex flex-col gap-5">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
          {emailEvents.map((event) => {
            const at = email[event.field];
            return (
              <div key={event.field}>
                <dt className="text-xs text-zinc-500">{event.label}</dt>
                <dd className={cn("mt-0.5 text-[13px]", at ? "text-zinc-900" : "text-zinc-400")}>{at ? formatDateTime(at) : "—"}</dd>
              </div>
            );
          })}
        </dl>
        {email.bounce_type && (
          <div
            className={cn(
              "rounded-md border px-3 py-2 text-[13px]",
              email.bounce_type === "hard" ? "border-red-200 bg-red-50 text-red-900" : "border-amber-200 bg-amber-50 text-amber-900",
            )}
          >
            <p className="font-medium">
              {email.bounce_type === "hard" ? "Hard bounce" : "Soft bounce"}
              {email.bounce_status && <span className="ml-1.5 font-mono text-xs">{email.bounce_status}</span>}
            </p>
            <p className="mt-0.5 text-xs">
              {email.bounce_type === "hard"
                ? "The address does not accept mail: it is suppressed."
                : "Delivery was delayed or refused for now; three in a row suppress the address."}
            </p>
            {email.bounce_diagnostic && <p className="mt-1 font-mono text-xs break-all opacity-80">{email.bounce_diagnostic}</p>}
          </div>
        )}
        <div>
          <h3 className="mb-2 text-xs font-medium text-zinc-500 uppercase">Events</h3>
          {email.events.length === 0 ? (
            <p className="text-[13px] text-zinc-500">No events recorded yet.</p>
          ) : (
            <ol className="relative flex flex-col gap-3 border-l border-zinc-200 pl-4">
              {email.events.map((event) => (
                <li key={event.id} className="relative">
                  <span
                    className={cn("absolute top-1.5 -left-[21px] size-2.5 rounded-full ring-2 ring-white", eventDot[event.type] ?? "bg-zinc-400")}
                    aria-hidden
                  />
                  <p className="text-[13px] font-medium text-zinc-900 capitalize">
                    {event.type.replaceAll("_", " ")}
                    {/* Recorded as a program's (lib/tracking/machine.ts): left out of reports' rates. */}
                    {event.data.machine === true && <span className="ml-1.5 font-normal text-zinc-500 normal-case">by a machine</span>}
                  </p>
                  <p className="text-xs text-zinc-500">{formatDateTime(event.created_at)}</p>
                  {describe(event.data) && <p className="mt-0.5 text-xs break-all text-zinc-500">{describe(event.data)}</p>}
                </li>
              ))}
            </ol>
          )}
        </div>
      </CardBody>
    </Card>
  );
}
