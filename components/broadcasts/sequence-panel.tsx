"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Clock, Eye, FileText, ListChecks, ListOrdered, Mail, Pencil, Plus, Send, Trash2 } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { useAllTemplates } from "@/lib/client/resources/templates";
import { apiCall } from "@/lib/client/api";
import type { CreateStepInput } from "@/lib/schemas/steps";
import { queryKeys } from "@/lib/client/query-keys";
import { useSteps } from "@/lib/client/resources/broadcasts";
import type { Broadcast, SequenceStep } from "./broadcast-types";
import type { Contact } from "@/lib/client/resources/contacts";
import { describeDelay } from "./step-values";

// The follow-up dialog (its form, schema and the content editor) loads after the page: it kept the
// broadcast page over its first-load JavaScript ceiling (npm run js-budget).
const StepDialog = dynamic(() => import("./step-dialog").then((m) => m.StepDialog), { ssr: false });
// So do each step's preview, test-send and checks dialogs (the studio's), for the same reason.
const StepChecksDialog = dynamic(() => import("./presend-checks").then((m) => m.StepChecksDialog), { ssr: false });
const PreviewDialog = dynamic(() => import("@/components/email-editor/preview-dialog").then((m) => m.PreviewDialog), { ssr: false });
const SendTestDialog = dynamic(() => import("@/components/email-editor/send-test-dialog").then((m) => m.SendTestDialog), { ssr: false });

const summary = (step: SequenceStep) =>
  (
    step.text_content?.trim() ||
    step.html_content
      ?.replace(/<style[\s\S]*?<\/style>/gi, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim() ||
    ""
  ).slice(0, 140);

/** Moves one step in a list ordered by position, renumbering the rest as the API does. */
function reorder(steps: SequenceStep[], stepId: string, position: number): SequenceStep[] {
  const moving = steps.find((s) => s.id === stepId);
  if (!moving) return steps;
  const rest = steps.filter((s) => s.id !== stepId);
  rest.splice(position - 1, 0, moving);
  return rest.map((s, index) => ({ ...s, position: index + 1 }));
}

function Connector({ minutes, businessDays }: { minutes: number; businessDays: number | null }) {
  return (
    <div className="flex items-center gap-3 py-1.5 pl-[15px]">
      <div className="h-7 w-px bg-zinc-200" aria-hidden />
      <span className="inline-flex items-center gap-1.5 rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-600">
        <Clock className="size-3" aria-hidden />
        {describeDelay(minutes, businessDays)}
      </span>
    </div>
  );
}

/** The follow-up steps of a broadcast: add, edit, reorder and delete them. */
export function SequencePanel({ broadcast, editable }: { broadcast: Broadcast; editable: boolean }) {
  const queryClient = useQueryClient();
  const key = queryKeys.broadcasts.steps(broadcast.id);
  const broadcastId = broadcast.id;
  const steps = useSteps(broadcast.id);
  const templates = useAllTemplates();
  const [editing, setEditing] = useState<{ open: boolean; step?: SequenceStep }>({ open: false });
  // Each follow-up gets what the first email gets: a preview as a contact, a test send, the checks.
  const [reviewing, setReviewing] = useState<{ kind: "preview" | "test" | "checks"; step: SequenceStep } | null>(null);
  const [contact, setContact] = useState<Contact | null>(null);
  const closeReview = (open: boolean) => !open && setReviewing(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const save = async (body: CreateStepInput) => {
    if (editing.step) {
      await apiCall("PUT /v1/broadcasts/{broadcastId}/steps/{stepId}", { params: { broadcastId, stepId: editing.step.id }, body });
      toast.success(`Follow-up ${editing.step.position} saved`);
    } else {
      await apiCall("POST /v1/broadcasts/{broadcastId}/steps", { params: { broadcastId }, body });
      toast.success("Follow-up added");
    }
    await refresh();
  };

  const move = useMutation({
    mutationFn: ({ step, position }: { step: SequenceStep; position: number }) =>
      apiCall("PUT /v1/broadcasts/{broadcastId}/steps/{stepId}", { params: { broadcastId, stepId: step.id }, body: { position } }),
    onMutate: async ({ step, position }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<SequenceStep[]>(key);
      if (before) queryClient.setQueryData(key, reorder(before, step.id, position));
      return { before };
    },
    onError: (error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      toast.error(error, "Could not move the follow-up");
    },
    onSettled: refresh,
  });

  const deleting = useDeleteAction<SequenceStep>({
    run: (step) => apiCall("DELETE /v1/broadcasts/{broadcastId}/steps/{stepId}", { params: { broadcastId, stepId: step.id } }),
    done: (step) => `Follow-up ${step.position} deleted`,
    failure: "Could not delete the follow-up",
    invalidate: [key],
  });

  const list = steps.data ?? [];
  const templateName = (id: string | null) => templates.data?.find((t) => t.id === id)?.name ?? "Template";
  const addButton = editable && (
    <Button variant="secondary" size="sm" onClick={() => setEditing({ open: true })}>
      <Plus aria-hidden />
      Add follow-up
    </Button>
  );

  return (
    <Card>
      <CardHeader
        title="Follow-up sequence"
        description={
          broadcast.sequence_mode === "sales"
            ? "Threaded replies to recipients who have not answered. A reply or an exit rule ends the sequence for that person."
            : "Standalone emails to recipients still in the sequence. An exit rule ends it for that person."
        }
        actions={list.length > 0 ? addButton : undefined}
      />
      <ListState
        query={steps}
        loading={<SkeletonRows rows={3} columns={2} />}
        errorTitle="Could not load the follow-ups"
        isEmpty={list.length === 0}
        empty={
          <EmptyState icon={ListOrdered} title="No follow-ups" action={addButton || undefined}>
            {editable
              ? "Most replies come from the second or third email. Add a follow-up to nudge recipients who have not answered."
              : "This broadcast was sent without follow-ups."}
          </EmptyState>
        }
      >
        <CardBody>
          <ol aria-label="Emails in the sequence">
            <li className="flex items-start gap-3">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-200" aria-hidden>
                <Mail className="size-4" />
              </span>
              <div className="min-w-0 pt-1">
                <p className="text-sm font-medium text-zinc-900">The broadcast</p>
                <p className="truncate text-[13px] text-zinc-500">{broadcast.subject}</p>
              </div>
            </li>
            {list.map((step, index) => (
              <li key={step.id}>
                <Connector minutes={step.delay_minutes} businessDays={step.delay_business_days} />
                <div className="flex items-start gap-3">
                  <span
                    className="flex size-8 shrink-0 items-center justify-center rounded-full bg-white text-xs font-semibold text-zinc-700 ring-1 ring-zinc-300"
                    aria-hidden
                  >
                    {step.position}
                  </span>
                  <div className="min-w-0 flex-1 rounded-lg border border-zinc-200 px-3 py-2.5">
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <div className="min-w-0">
                        <p className="text-sm font-medium text-zinc-900">
                          Follow-up {step.position}
                          <span className="sr-only">, {describeDelay(step.delay_minutes, step.delay_business_days)}</span>
                        </p>
                        <p className="truncate text-[13px] text-zinc-600">
                          {step.subject ? (
                            step.subject
                          ) : (
                            <span className="text-zinc-400">{broadcast.sequence_mode === "sales" ? `Re: ${broadcast.subject}` : broadcast.subject}</span>
                          )}
                        </p>
                      </div>
                      {editable && (
                        <div className="flex shrink-0 items-center gap-0.5">
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Move follow-up ${step.position} up`}
                            title="Move up"
                            disabled={index === 0 || move.isPending}
                            onClick={() => move.mutate({ step, position: step.position - 1 })}
                          >
                            <ArrowUp aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Move follow-up ${step.position} down`}
                            title="Move down"
                            disabled={index === list.length - 1 || move.isPending}
                            onClick={() => move.mutate({ step, position: step.position + 1 })}
                          >
                            <ArrowDown aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Edit follow-up ${step.position}`}
                            title="Edit"
                            onClick={() => setEditing({ open: true, step })}
                          >
                            <Pencil aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Delete follow-up ${step.position}`}
                            title="Delete"
                            className="hover:bg-red-50 hover:text-red-600"
                            onClick={() => deleting.ask(step)}
                          >
                            <Trash2 aria-hidden />
                          </Button>
                        </div>
                      )}
                    </div>
                    <div className="mt-1.5 flex flex-wrap items-end justify-between gap-2">
                      {step.template_id ? (
                        <Badge tone="brand">
                          <FileText className="size-3" aria-hidden />
                          {templateName(step.template_id)}
                        </Badge>
                      ) : (
                        <p className="line-clamp-2 text-[13px] text-zinc-500">{summary(step) || "No content"}</p>
                      )}
                      <div className="flex shrink-0 gap-1" role="group" aria-label={`Review follow-up ${step.position}`}>
                        <Button variant="ghost" size="sm" onClick={() => setReviewing({ kind: "preview", step })}>
                          <Eye aria-hidden />
                          Preview
                        </Button>
                        <Button variant="ghost" size="sm" onClick={() => setReviewing({ kind: "test", step })}>
                          <Send aria-hidden />
                          Send test
                        </Button>
                        <Button variant="ghost" size="sm" onClick={() => setReviewing({ kind: "checks", step })}>
                          <ListChecks aria-hidden />
                          Checks
                        </Button>
                      </div>
                    </div>
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </CardBody>
      </ListState>
      <StepDialog
        open={editing.open}
        onOpenChange={(open) => setEditing((current) => ({ ...current, open }))}
        broadcast={broadcast}
        step={editing.step}
        number={editing.step?.position ?? list.length + 1}
        onSave={save}
      />
      {reviewing && (
        <>
          <PreviewDialog
            open={reviewing.kind === "preview"}
            onOpenChange={closeReview}
            broadcastId={broadcast.id}
            stepId={reviewing.step.id}
            from={broadcast.from_name || broadcast.from_email}
            segmentId={broadcast.segment_id}
            contact={contact}
            onContactChange={setContact}
          />
          <SendTestDialog
            open={reviewing.kind === "test"}
            onOpenChange={closeReview}
            test={{ route: "POST /v1/broadcasts/{id}/test", id: broadcast.id }}
            stepId={reviewing.step.id}
            segmentId={broadcast.segment_id}
            contact={contact}
            onContactChange={setContact}
          />
          <StepChecksDialog open={reviewing.kind === "checks"} onOpenChange={closeReview} broadcastId={broadcast.id} stepId={reviewing.step.id} />
        </>
      )}
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete follow-up ${deleting.target?.position ?? ""}?`}
        description="Later follow-ups move up one place, keeping their own waits. This cannot be undone."
        confirmLabel="Delete follow-up"
      />
    </Card>
  );
}
