"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CalendarX, Paperclip } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime } from "@/components/ui/date";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { Email } from "./email-types";

const formatBytes = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Who an email goes to, as the Details card lists it: to (all of them), cc and bcc, each when there are any. */
export function recipientRows(email: Email): [string, string][] {
  const to = email.to.length > 0 ? email.to : [email.to_email];
  const rows: [string, string][] = [["To", to.join(", ")]];
  if (email.cc.length > 0) rows.push(["Cc", email.cc.join(", ")]);
  if (email.bcc.length > 0) rows.push(["Bcc", email.bcc.join(", ")]);
  if (email.status === "scheduled" && email.scheduled_at) rows.push(["Scheduled for", formatDateTime(email.scheduled_at)]);
  return rows;
}

/** The files an email carries: names, types and sizes (the bytes stay with the server). */
export function AttachmentsCard({ email }: { email: Email }) {
  if (email.attachments.length === 0) return null;
  return (
    <Card>
      <CardHeader title="Attachments" description={`${email.attachments.length} file${email.attachments.length === 1 ? "" : "s"}`} />
      <CardBody>
        <ul className="flex flex-col gap-2" aria-label="Attachments">
          {email.attachments.map((file, i) => (
            <li key={i} className="flex items-center gap-2 text-[13px]">
              <Paperclip className="size-3.5 shrink-0 text-zinc-400" aria-hidden />
              <span className="min-w-0 flex-1 truncate text-zinc-900">{file.filename ?? "(no name)"}</span>
              {file.content_id && <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] text-zinc-600">inline</span>}
              <span className="shrink-0 text-zinc-500 tabular-nums">{formatBytes(file.size)}</span>
            </li>
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}

/** Cancels a scheduled email after asking: it is then never sent. */
export function CancelScheduledButton({ email }: { email: Email }) {
  const queryClient = useQueryClient();
  if (email.status !== "scheduled" || email.broadcast_id !== null) return null;
  return (
    <ConfirmDialog
      title="Cancel this scheduled email?"
      description={`It was to go to ${email.to_email}${email.scheduled_at ? ` on ${formatDateTime(email.scheduled_at)}` : ""}. A cancelled email is never sent; this cannot be undone.`}
      confirmLabel="Cancel email"
      cancelLabel="Keep it scheduled"
      trigger={
        <Button variant="secondary">
          <CalendarX aria-hidden />
          Cancel scheduled email
        </Button>
      }
      onConfirm={async () => {
        try {
          await apiCall("POST /v1/emails/{id}/cancel", { params: { id: email.id } });
          toast.success("Email cancelled", "It will not be sent.");
        } catch (error) {
          toast.error(error, "Could not cancel the email");
          throw error;
        } finally {
          await queryClient.invalidateQueries({ queryKey: queryKeys.emails.all() });
        }
      }}
    />
  );
}
