"use client";

import { Check } from "lucide-react";
import { CommentsCard } from "@/components/emails/comments-card";
import { DraftCard } from "@/components/emails/draft-card";
import { ThreadCard } from "@/components/emails/thread-card";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { useThread, type Thread, type ThreadCategory } from "@/lib/client/resources/threads";
import { CATEGORIES } from "./categories";

const categoryOptions = CATEGORIES.map((c) => ({ value: c.value, label: c.label }));

type Message = Thread["emails"][number];

/** Who the conversation is with, and where a reply goes when the lead's Reply-To points elsewhere (as the server sends it). */
function conversationWith(message: Message): string {
  if (message.direction !== "inbound") return `With ${message.to_email}`;
  const elsewhere = message.reply_to && message.reply_to.toLowerCase() !== message.from_email.toLowerCase();
  return `With ${message.from_email}${elsewhere ? ` · replies go to ${message.reply_to}` : ""}`;
}

/**
 * One thread of the unified inbox: its messages to read, the category a person can change, the
 * shared draft to edit and send, and the team's comments on the latest reply. Loaded on demand: its
 * forms (react-hook-form, zod) stay out of the inbox's first load.
 */
export default function ThreadPane({ threadId, onCategory }: { threadId: string; onCategory: (category: ThreadCategory) => Promise<void> }) {
  const thread = useThread(threadId);
  if (thread.isPending) {
    return (
      <Card>
        <SkeletonRows rows={4} columns={2} />
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
  const data = thread.data;
  const latestReply = data.emails.filter((email) => email.direction === "inbound").at(-1) ?? data.emails.at(-1);
  const category = data.category ?? "needs_reply";
  return (
    <section aria-label="Thread" className="flex min-w-0 flex-col gap-6">
      <Card>
        <CardHeader
          title={<span className="break-words">{latestReply?.subject || data.subject || "(no subject)"}</span>}
          description={latestReply ? conversationWith(latestReply) : undefined}
          actions={
            <div className="flex items-center gap-2">
              <NativeSelect
                aria-label="Thread category"
                className="w-40"
                value={category}
                onChange={(event) => void onCategory(event.target.value as ThreadCategory)}
                options={categoryOptions}
              />
              <Button variant="secondary" size="sm" onClick={() => void onCategory("done")} disabled={category === "done"} title="Mark done (e)">
                <Check aria-hidden />
                Done
              </Button>
            </div>
          }
        />
      </Card>
      <ThreadCard thread={data} full />
      <DraftCard thread={data} />
      {latestReply && <CommentsCard emailId={latestReply.id} />}
    </section>
  );
}
