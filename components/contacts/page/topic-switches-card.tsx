"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Card, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useContactTopics } from "@/lib/client/resources/contact-page";

/**
 * The contact's topics with a switch each: what it receives now (its own choice, else the topic's
 * default). A switch records a choice, as the contact's preference page does.
 */
export function TopicSwitchesCard({ contactId }: { contactId: string }) {
  const queryClient = useQueryClient();
  const topics = useContactTopics(contactId);
  const choose = useMutation({
    mutationFn: (choice: { topic_id: string; subscribed: boolean }) => apiCall("PUT /v1/contacts/{id}/topics", { params: { id: contactId }, body: [choice] }),
    onSuccess: (list) => {
      queryClient.setQueryData(queryKeys.contacts.topics(contactId), list);
      // A topic's count of who receives it changes with the choice, and the choice is an event of the timeline.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.topics.all() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.contacts.events(contactId) }),
      ]);
    },
    onError: (error) => toast.error(error, "Could not change the topic"),
  });

  return (
    <Card>
      <CardHeader title="Topics" description="What this contact receives, by its own choice or the topic's default." />
      {topics.isPending ? (
        <div className="flex flex-col gap-3 p-5" role="status" aria-label="Loading topics">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : topics.isError ? (
        <ErrorState title="Could not load topics" error={topics.error} onRetry={() => topics.refetch()} />
      ) : topics.data.length === 0 ? (
        <p className="px-5 py-4 text-sm text-zinc-500">No topics yet. Create them on the Topics screen.</p>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="The contact's topics">
          {topics.data.map((topic) => (
            <li key={topic.topic_id} className="flex items-center justify-between gap-3 px-5 py-3">
              <span className="min-w-0 truncate text-sm text-zinc-800">{topic.name}</span>
              <Switch
                checked={topic.subscribed}
                disabled={choose.isPending}
                onCheckedChange={(subscribed) => choose.mutate({ topic_id: topic.topic_id, subscribed })}
                aria-label={`Receives ${topic.name}`}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
