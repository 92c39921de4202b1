"use client";

import { useQuery } from "@tanstack/react-query";
import { useThread } from "@/lib/client/resources/threads";
import { Mail } from "lucide-react";
import Link from "next/link";
import { BackLink } from "@/components/ui/back-link";
import { StatusBadge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatDateTime } from "@/components/ui/date";
import { ErrorState } from "@/components/ui/error-state";
import { PageHeader } from "@/components/ui/page-header";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { DetailList } from "@/components/ui/detail-list";
import { SkeletonRecordPage, SkeletonRows } from "@/components/ui/skeleton";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { ActivityCard } from "./activity-card";
import { CommentsCard } from "./comments-card";
import { DraftCard } from "./draft-card";
import { EmailMessageCard } from "./email-message-card";
import type { EmailDetail as EmailDetailRecord } from "./email-types";
import { AttachmentsCard, CancelScheduledButton, recipientRows } from "./recipients-and-files";
import { ThreadCard } from "./thread-card";

const who = (name: string | null, address: string) => (name ? `${name} <${address}>` : address);

/** " and 3 more" when the email goes to more than its first To address. */
function recipientsBeyond(email: EmailDetailRecord): string {
  const more = Math.max(email.to.length, 1) - 1 + email.cc.length + email.bcc.length;
  return more > 0 ? ` and ${more} more` : "";
}

function ThreadSection({ threadId, emailId }: { threadId: string; emailId: string }) {
  const thread = useThread(threadId);
  if (thread.isPending) {
    return (
      <Card>
        <SkeletonRows rows={3} columns={2} />
      </Card>
    );
  }
  if (thread.isError) {
    return (
      <Card>
        <ErrorState error={thread.error} onRetry={() => void thread.refetch()} title="Could not load the thread" />
      </Card>
    );
  }
  return (
    <>
      <ThreadCard thread={thread.data} currentId={emailId} />
      <DraftCard thread={thread.data} />
    </>
  );
}

function Details({ email }: { email: EmailDetailRecord }) {
  const rows: [string, React.ReactNode][] = [
    ["From", who(email.from_name, email.from_email)],
    ...recipientRows(email),
    ...(email.reply_to ? ([["Reply-to", email.reply_to]] as [string, React.ReactNode][]) : []),
    ["Created", formatDateTime(email.created_at)],
    [
      "Message-ID",
      <span key="mid" className="font-mono text-xs break-all">
        {email.message_id}
      </span>,
    ],
    ...(email.broadcast_id
      ? ([
          [
            "Broadcast",
            <Link key="b" href={`/broadcasts/${email.broadcast_id}`} className="font-medium text-brand-600 hover:underline">
              Open broadcast
            </Link>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    ...(email.template_id
      ? ([
          [
            "Template",
            <Link key="t" href={`/templates/${email.template_id}`} className="font-medium text-brand-600 hover:underline">
              Open template
            </Link>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    ...(email.tags.length ? ([["Tags", email.tags.join(", ")]] as [string, React.ReactNode][]) : []),
  ];
  return (
    <Card>
      <CardHeader title="Details" />
      <CardBody>
        <DetailList rows={rows} />
      </CardBody>
    </Card>
  );
}

/** One email: the rendered message, headers, activity, its thread with the draft reply, and comments. */
export function EmailDetail({ id }: { id: string }) {
  const query = useQuery({ queryKey: queryKeys.emails.detail(id), queryFn: () => apiCall("GET /v1/emails/{id}", { params: { id } }) });

  if (query.isPending) {
    return <SkeletonRecordPage label="Loading the email" titleClassName="w-96" mainClassName="h-[600px]" />;
  }
  if (query.isError) {
    return (
      <RecordLoadError
        query={query}
        list={{ href: "/emails", label: "Emails" }}
        title="Email"
        icon={Mail}
        notFoundTitle="Email not found"
        errorTitle="Could not load the email"
      />
    );
  }

  const email = query.data;
  const inbound = email.direction === "inbound";
  return (
    <>
      <PageHeader
        breadcrumb={<BackLink href="/emails">Emails</BackLink>}
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span className="min-w-0 break-words">{email.subject || "(no subject)"}</span>
            <StatusBadge status={email.status} />
          </span>
        }
        description={`${inbound ? "Received from" : "From"} ${who(email.from_name, email.from_email)} ${inbound ? "at" : "to"} ${email.to_email}${recipientsBeyond(email)}${email.sent_at ? ` · ${formatDateTime(email.sent_at)}` : ""}`}
        actions={<CancelScheduledButton email={email} />}
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex min-w-0 flex-col gap-6">
          <EmailMessageCard email={email} />
          {email.thread_id && <ThreadSection threadId={email.thread_id} emailId={email.id} />}
          <CommentsCard emailId={email.id} />
        </div>
        <aside className="flex flex-col gap-6" aria-label="About this email">
          <ActivityCard email={email} />
          <Details email={email} />
          <AttachmentsCard email={email} />
        </aside>
      </div>
    </>
  );
}
