"use client";

import { ArrowDownLeft, ArrowUpRight } from "lucide-react";
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { cn } from "@/lib/client/cn";
import type { Thread } from "./email-types";

const snippet = (text: string | null, html: string | null) =>
  (text?.trim() || html?.replace(/<style[\s\S]*?<\/style>/gi, " ").replace(/<[^>]+>/g, " ") || "").replace(/\s+/g, " ").trim().slice(0, 160);

/** The readable text of a message: its text part, else its HTML's words. */
const bodyText = (text: string | null, html: string | null) =>
  text?.trim() ||
  html
    ?.replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<br\s*\/?>|<\/p>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .trim() ||
  "";

/**
 * The conversation, oldest first: on an email's page with that email marked and the others a link
 * away; in the unified inbox (`full`) with every message's text, to be read where it is.
 */
export function ThreadCard({ thread, currentId, full = false }: { thread: Thread; currentId?: string; full?: boolean }) {
  return (
    <Card>
      <CardHeader title="Thread" description={`${thread.emails.length} email${thread.emails.length === 1 ? "" : "s"} in this conversation`} />
      <ol className="divide-y divide-zinc-100">
        {thread.emails.map((email) => {
          const current = email.id === currentId;
          const inbound = email.direction === "inbound";
          const Icon = inbound ? ArrowDownLeft : ArrowUpRight;
          const body = (
            <div className="flex gap-3">
              <span
                className={cn(
                  "mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full",
                  inbound ? "bg-sky-50 text-sky-600" : "bg-zinc-100 text-zinc-500",
                )}
                aria-hidden
              >
                <Icon className="size-3.5" />
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <p className="truncate text-sm font-medium text-zinc-900">
                    <span className="sr-only">{inbound ? "Received from " : "Sent from "}</span>
                    {email.from_name ? `${email.from_name} <${email.from_email}>` : email.from_email}
                  </p>
                  <span className="text-xs text-zinc-500">
                    <RelativeTime value={email.sent_at ?? email.created_at} />
                  </span>
                </div>
                <p className="truncate text-[13px] text-zinc-600">{email.subject}</p>
                {full ? (
                  <div className="mt-2 max-h-[28rem] overflow-auto text-sm leading-relaxed whitespace-pre-wrap text-zinc-800">
                    {bodyText(email.text_content, email.html_content) || <span className="text-zinc-500">No content</span>}
                  </div>
                ) : (
                  <p className="mt-0.5 line-clamp-2 text-[13px] text-zinc-500">{snippet(email.text_content, email.html_content) || "No content"}</p>
                )}
                <div className="mt-1.5 flex items-center gap-2">
                  <StatusBadge status={email.status} />
                  {current && <span className="text-xs font-medium text-brand-700">Viewing</span>}
                  {full && (
                    <Link href={`/emails/${email.id}`} className="text-xs font-medium text-brand-600 hover:underline">
                      Details
                    </Link>
                  )}
                </div>
              </div>
            </div>
          );
          return (
            <li key={email.id} aria-current={current ? "true" : undefined} className={cn(current && "bg-brand-50/40")}>
              {current || full ? (
                <div className="px-5 py-3">{body}</div>
              ) : (
                <Link href={`/emails/${email.id}`} className="block px-5 py-3 hover:bg-zinc-50 focus-visible:bg-zinc-50 focus-visible:outline-none">
                  {body}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
