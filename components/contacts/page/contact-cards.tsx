"use client";

import { Mail } from "lucide-react";
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatDateTime, RelativeTime } from "@/components/ui/date";
import { DetailList } from "@/components/ui/detail-list";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { useContactEmails, useContactSegments } from "@/lib/client/resources/contact-page";
import type { ContactRecord } from "@/lib/schemas/contacts";

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The contact's fields, then its properties (metadata) as they are, key by key. */
export function ContactDetailsCard({ contact }: { contact: ContactRecord }) {
  const rows: [string, React.ReactNode][] = [
    ["Email", contact.email],
    ["First name", contact.first_name ?? "—"],
    ["Last name", contact.last_name ?? "—"],
    ["Subscribed", contact.subscribed ? "Yes" : `No, since ${formatDateTime(contact.unsubscribed_at)}`],
    ["Tags", contact.tags.length ? contact.tags.join(", ") : "—"],
    ["Time zone", contact.timezone ?? "The organization's"],
    ["Added", formatDateTime(contact.created_at)],
    ["Updated", formatDateTime(contact.updated_at)],
  ];
  const properties = Object.entries(contact.metadata);
  return (
    <Card>
      <CardHeader title="Details" />
      <CardBody>
        <DetailList rows={rows} />
        <h3 className="mt-5 mb-2 text-xs font-medium text-zinc-500 uppercase">Properties</h3>
        {properties.length === 0 ? (
          <p className="text-[13px] text-zinc-500">No properties. Add them when editing the contact, in an import or through the API.</p>
        ) : (
          <dl className="flex flex-col gap-2.5" aria-label="Properties">
            {properties.map(([key, value]) => (
              <div key={key}>
                <dt className="font-mono text-xs text-zinc-500">{key}</dt>
                <dd className="text-[13px] break-words text-zinc-900">{show(value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardBody>
    </Card>
  );
}

export function ContactSegmentsCard({ contactId }: { contactId: string }) {
  const query = useContactSegments(contactId);
  const segments = query.data?.data ?? [];
  return (
    <Card>
      <CardHeader title="Segments" />
      <ListState
        query={query}
        loading={<SkeletonRows rows={2} columns={1} />}
        errorTitle="Could not load the segments"
        isEmpty={segments.length === 0}
        empty={<p className="px-5 py-4 text-[13px] text-zinc-500">In no segment. Add it to one from the Segments screen or an import.</p>}
      >
        <ul className="flex flex-col gap-2 px-5 py-4" aria-label="Segments">
          {segments.map((segment) => (
            <li key={segment.id} className="flex items-baseline justify-between gap-3 text-[13px]">
              <Link href={`/contacts?segment_id=${segment.id}`} className="truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                {segment.name}
              </Link>
              <span className="shrink-0 text-xs text-zinc-500">
                {segment.added_at ? (
                  <>
                    since <RelativeTime value={segment.added_at} />
                  </>
                ) : (
                  "matches its filter"
                )}
              </span>
            </li>
          ))}
        </ul>
      </ListState>
    </Card>
  );
}

/** How many of the contact's latest emails the card lists. */
const LISTED = 10;

export function ContactEmailsCard({ query }: { query: ReturnType<typeof useContactEmails> }) {
  const emails = query.data?.data ?? [];
  const total = query.data && "pagination" in query.data ? query.data.pagination.total : emails.length;
  return (
    <Card>
      <CardHeader title="Emails" description={total > LISTED ? `The latest ${LISTED} of ${total.toLocaleString("en-US")}.` : undefined} />
      <ListState
        query={query}
        loading={<SkeletonRows rows={3} columns={3} />}
        errorTitle="Could not load the emails"
        isEmpty={emails.length === 0}
        empty={
          <EmptyState icon={Mail} title="No emails yet" className="py-6">
            Broadcasts and emails sent to this contact show here.
          </EmptyState>
        }
      >
        <ul className="divide-y divide-zinc-100" aria-label="Emails">
          {emails.slice(0, LISTED).map((email) => (
            <li key={email.id} className="flex items-center justify-between gap-3 px-5 py-2.5">
              <div className="min-w-0">
                <Link href={`/emails/${email.id}`} className="block truncate text-[13px] font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                  {email.subject || "(no subject)"}
                </Link>
                <p className="truncate text-xs text-zinc-500">
                  {email.direction === "inbound" ? "Received" : "Sent"} <RelativeTime value={email.sent_at ?? email.created_at} />
                </p>
              </div>
              <StatusBadge status={email.status} />
            </li>
          ))}
        </ul>
      </ListState>
    </Card>
  );
}
