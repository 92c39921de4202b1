"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Copy, Megaphone, Save } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { BackLink } from "@/components/ui/back-link";
import { StatusBadge } from "@/components/ui/badge";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card } from "@/components/ui/card";
import { FormError } from "@/components/ui/form-field";
import { PageHeader } from "@/components/ui/page-header";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { useSegments } from "@/lib/client/resources/segments";
import { ApiError, apiCall } from "@/lib/client/api";
import { applyServerErrors } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { useBroadcast } from "@/lib/client/resources/broadcasts";
import { updateBroadcastInput } from "@/lib/schemas/broadcasts";
import { AbTestCard } from "./ab-test-card";
import { AudienceCard } from "./audience-card";
import { BroadcastTabs } from "./broadcast-tabs";
import { isEditable, readOnlyReason, type Broadcast } from "./broadcast-types";
import { ContentCard } from "./content-card";
import { DeliveryCard } from "./delivery-card";
import { duplicateBroadcast } from "./duplicate-broadcast";
import { EditorLock } from "./editor-lock";
import { changedBody, editorFields, toEditorValues, toUpdateBody, type EditorValues } from "./editor-values";
import { MessageCard } from "./message-card";
import { SendPanel } from "./send-panel";
import { SenderCard } from "./sender-card";
import { SequencePanel } from "./sequence-panel";
import { SequenceSettingsCard } from "./sequence-settings-card";
import { SendingWindowCard } from "./sending-window-card";
import { TrackingCard } from "./tracking-card";
import { SaveStatus } from "@/components/email-editor/save-status";
import { useAutosave } from "@/components/email-editor/use-autosave";
import { useLeaveGuard } from "@/components/email-editor/use-leave-guard";
import { markEditedSince } from "@/components/email-editor/mark-edited";

const resolver = bodyResolver<EditorValues, typeof updateBroadcastInput>(updateBroadcastInput, toUpdateBody);

function EditorSkeleton() {
  return (
    <div role="status" aria-label="Loading the broadcast">
      <Skeleton className="mb-2 h-4 w-24" />
      <Skeleton className="mb-8 h-8 w-72" />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex flex-col gap-6">
          <Skeleton className="h-56 w-full rounded-xl" />
          <Skeleton className="h-72 w-full rounded-xl" />
        </div>
        <Skeleton className="h-48 w-full rounded-xl" />
      </div>
    </div>
  );
}

function EditorForm({ broadcast }: { broadcast: Broadcast }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const segments = useSegments();
  const editable = isEditable(broadcast.status);
  const values = useMemo(() => toEditorValues(broadcast), [broadcast]);
  const form = useForm<EditorValues>({ resolver, values, resetOptions: { keepDirtyValues: true } });
  const { isDirty, isSubmitting, errors } = form.formState;

  /** Stores what changed; an autosave (`silent`) keeps edits made while it ran and raises no toast. */
  const persist = async (current: EditorValues, silent: boolean): Promise<boolean> => {
    const body = changedBody(current, values);
    const sent = structuredClone(current);
    try {
      const updated = await apiCall("PUT /v1/broadcasts/{id}", { params: { id: broadcast.id }, body });
      queryClient.setQueryData(queryKeys.broadcasts.detail(broadcast.id), updated);
      form.reset(toEditorValues(updated), { keepDirtyValues: silent });
      if (silent) markEditedSince(form, sent);
      void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.list() });
      if (!silent) toast.success("Changes saved");
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === "BROADCAST_NOT_EDITABLE")
        void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.detail(broadcast.id), exact: true });
      applyServerErrors(error, form.setError, editorFields);
      toast.error(error, "Could not save the broadcast");
      return false;
    }
  };
  const save = form.handleSubmit((current) => persist(current, false));
  const isValid = (current: EditorValues) => updateBroadcastInput.safeParse(changedBody(current, values)).success;
  const saveState = useAutosave(form, { enabled: editable, valid: isValid, save: () => persist(form.getValues(), true) });
  useLeaveGuard(editable && isDirty);

  /** Saves pending edits before a preview or a test, which use the saved broadcast. */
  const saveNow = async (): Promise<boolean> => {
    if (!editable || !form.formState.isDirty) return true;
    if (!isValid(form.getValues())) {
      await form.trigger();
      return false;
    }
    return persist(form.getValues(), true);
  };

  // Ctrl/Cmd+S saves, as in every editor people already know.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        if (editable && form.formState.isDirty) void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [editable, form.formState, save]);

  const [duplicating, setDuplicating] = useState(false);
  const duplicate = async () => {
    setDuplicating(true);
    try {
      const copy = await duplicateBroadcast(broadcast);
      void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.all() });
      toast.success("Duplicated", "This is the new draft.");
      router.push(`/broadcasts/${copy.id}`);
    } catch (error) {
      toast.error(error, "Could not duplicate the broadcast");
    } finally {
      setDuplicating(false);
    }
  };

  const segment = segments.data?.find((s) => s.id === broadcast.segment_id);
  const audience = segment
    ? `the subscribed contacts of ${segment.name} (${segment.contacts_count.toLocaleString()} in the segment)`
    : "the subscribed contacts of the chosen segment";

  return (
    <FormProvider {...form}>
      <EditorLock.Provider value={!editable}>
        <PageHeader
          breadcrumb={<BackLink href="/broadcasts">Broadcasts</BackLink>}
          title={
            <span className="flex flex-wrap items-center gap-3">
              <span className="min-w-0 break-words">{broadcast.name}</span>
              <StatusBadge status={broadcast.status} />
            </span>
          }
          description={broadcast.subject}
          actions={
            editable && (
              <div className="flex items-center gap-3">
                <SaveStatus state={isDirty && saveState === "saved" ? "unsaved" : saveState} />
                <Button type="submit" form="broadcast-editor" loading={isSubmitting} disabled={!isDirty}>
                  <Save aria-hidden />
                  Save changes
                </Button>
              </div>
            )
          }
        />
        {!editable && (
          <Callout
            tone="warning"
            title="Read-only"
            className="mb-6"
            action={
              broadcast.status !== "sending" &&
              broadcast.status !== "paused" && (
                <Button variant="secondary" size="sm" onClick={() => void duplicate()} loading={duplicating}>
                  <Copy aria-hidden />
                  Duplicate
                </Button>
              )
            }
          >
            {readOnlyReason[broadcast.status]}
          </Callout>
        )}
        <BroadcastTabs broadcast={broadcast}>
          <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
            <aside className="flex flex-col gap-6 xl:sticky xl:top-20 xl:order-2 xl:self-start" aria-label="Sending">
              <SendPanel
                broadcast={broadcast}
                dirty={isDirty}
                audience={audience}
                onRefused={(error) => applyServerErrors(error, form.setError, editorFields)}
              />
            </aside>
            <div className="flex min-w-0 flex-col gap-6 xl:order-1">
              <form id="broadcast-editor" onSubmit={save} noValidate>
                {/* Placeholders in locked fields would read like saved values. */}
                <fieldset
                  disabled={!editable}
                  className="flex min-w-0 flex-col gap-6 [&_input:disabled]:placeholder:text-transparent [&_textarea:disabled]:placeholder:text-transparent"
                >
                  <legend className="sr-only">Broadcast settings</legend>
                  <FormError message={errors.root?.server?.message} />
                  <MessageCard />
                  <SenderCard />
                  <ContentCard broadcast={broadcast} editable={editable} saveNow={saveNow} />
                  <AudienceCard />
                  <AbTestCard broadcast={broadcast} />
                  <DeliveryCard />
                  <SendingWindowCard />
                  <TrackingCard />
                  <SequenceSettingsCard />
                </fieldset>
              </form>
              <SequencePanel broadcast={broadcast} editable={editable} />
              {editable && isDirty && (
                <div className="sticky bottom-4 z-10">
                  <Card className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 shadow-lg">
                    <p className="text-sm text-zinc-700">You have unsaved changes.</p>
                    <div className="flex gap-2">
                      <Button variant="secondary" onClick={() => form.reset(values)} disabled={isSubmitting}>
                        Discard
                      </Button>
                      <Button type="submit" form="broadcast-editor" loading={isSubmitting}>
                        Save changes
                      </Button>
                    </div>
                  </Card>
                </div>
              )}
            </div>
          </div>
        </BroadcastTabs>
      </EditorLock.Provider>
    </FormProvider>
  );
}

/** The broadcast editor: every setting, the follow-up sequence, and sending. */
export function BroadcastEditor({ id }: { id: string }) {
  const query = useBroadcast(id);
  if (query.isPending) return <EditorSkeleton />;
  if (query.isError) {
    return (
      <RecordLoadError
        query={query}
        list={{ href: "/broadcasts", label: "Broadcasts" }}
        title="Broadcast"
        icon={Megaphone}
        notFoundTitle="Broadcast not found"
        errorTitle="Could not load the broadcast"
      />
    );
  }
  return <EditorForm broadcast={query.data} />;
}
