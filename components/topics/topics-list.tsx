"use client";

import { Plus, Tags } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { RowActions, RowDeleteItem, RowEditItem } from "@/components/ui/row-actions";
import { SkeletonCards } from "@/components/ui/skeleton";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useTopics, type Topic } from "@/lib/client/resources/topics";

// The dialog's form (react-hook-form, the topic schema) loads on first use, not with the page.
const TopicDialog = dynamic(() => import("./topic-dialog").then((m) => m.TopicDialog), { ssr: false });

/** The Topics screen: what contacts can choose to receive, with who receives each now. */
export function TopicsList() {
  const topics = useTopics();
  const [dialog, setDialog] = useState<{ open: boolean; topic?: Topic }>({ open: false });
  const deleting = useDeleteAction<Topic>({
    run: (topic) => apiCall("DELETE /v1/topics/{id}", { params: { id: topic.id } }),
    done: (topic) => `Deleted ${topic.name}`,
    failure: "Could not delete the topic",
    invalidate: [queryKeys.topics.all()],
  });
  const addButton = (
    <Button onClick={() => setDialog({ open: true })}>
      <Plus aria-hidden />
      Create topic
    </Button>
  );
  const rows = [...(topics.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <>
      <PageHeader
        title="Topics"
        description="Kinds of email your contacts choose from on their preference page, linked from every marketing email."
        actions={addButton}
      />
      <Card>
        <ListState
          query={topics}
          loading={<SkeletonCards label="Loading topics" className="h-12" />}
          errorTitle="Could not load topics"
          isEmpty={rows.length === 0}
          empty={
            <EmptyState icon={Tags} title="No topics yet" action={addButton}>
              Create topics such as “Product news” or “Events”, send broadcasts to one, and let people keep what they want instead of leaving altogether.
            </EmptyState>
          }
        >
          <ul className="divide-y divide-zinc-100" aria-label="Topics">
            {rows.map((topic) => (
              <li key={topic.id} className="flex flex-wrap items-start gap-x-4 gap-y-2 px-5 py-4">
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <p className="truncate text-sm font-medium text-zinc-900">{topic.name}</p>
                    <Badge tone={topic.default_subscription === "opt_out" ? "brand" : "neutral"}>
                      {topic.default_subscription === "opt_out" ? "Everyone until they leave" : "Only those who join"}
                    </Badge>
                  </div>
                  {topic.description && <p className="mt-1 text-[13px] text-zinc-600">{topic.description}</p>}
                </div>
                <p className="text-[13px] text-zinc-600 tabular-nums" aria-label={`${topic.name} reaches`}>
                  {topic.subscribers_count.toLocaleString()} {topic.subscribers_count === 1 ? "contact" : "contacts"}
                </p>
                <RowActions name={topic.name}>
                  <RowEditItem onSelect={() => setDialog({ open: true, topic })} />
                  <RowDeleteItem onSelect={() => deleting.ask(topic)} />
                </RowActions>
              </li>
            ))}
          </ul>
        </ListState>
      </Card>
      <TopicDialog open={dialog.open} onOpenChange={(open) => setDialog((current) => ({ ...current, open }))} topic={dialog.topic} />
      <ConfirmDialog
        {...deleting.dialog}
        title="Delete this topic?"
        description={
          <>
            <span className="font-medium">{deleting.target?.name}</span> disappears from preference pages, contacts&apos; choices about it are forgotten and
            broadcasts sent to it keep no topic. This cannot be undone.
          </>
        }
        confirmLabel="Delete topic"
      />
    </>
  );
}
