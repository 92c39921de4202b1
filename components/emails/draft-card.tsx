"use client";

import { useQueryClient } from "@tanstack/react-query";
import { PenLine, Save, Send, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { saveDraftInput } from "@/lib/schemas/threads";
import { threadKey, type Thread } from "./email-types";
import { replyFieldId } from "./reply-field";

type Values = { subject: string; text_content: string };

const toBody = (values: Values) => ({ subject: values.subject.trim() === "" ? null : values.subject, text_content: values.text_content });
const resolver = bodyResolver<Values, typeof saveDraftInput>(saveDraftInput, toBody);

/** The subject a reply gets when the draft has none: the latest received email's, as the server answers it. */
function defaultSubject(thread: Thread): string {
  const received = thread.emails.filter((email) => email.direction === "inbound").at(-1);
  const subject = (received?.subject ?? thread.subject).replace(/^(?:\s*(?:re|aw|sv|antw|réf|tr)\s*:\s*)+/i, "");
  return `Re: ${subject}`;
}

/** The thread's shared reply: edit and save it, send it from the thread's inbox, or discard it. */
export function DraftCard({ thread }: { thread: Thread }) {
  const queryClient = useQueryClient();
  const draft = thread.draft;
  const [discardOpen, setDiscardOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const form = useForm<Values>({ resolver, defaultValues: { subject: draft?.subject ?? "", text_content: draft?.text_content ?? "" } });
  const { errors, isSubmitting, isDirty } = form.formState;

  useEffect(() => {
    form.reset({ subject: draft?.subject ?? "", text_content: draft?.text_content ?? "" });
  }, [draft?.id, draft?.updated_at, draft?.subject, draft?.text_content, form]);

  const save = submitToApi(form, ["subject", "text_content"], async (values) => {
    await apiCall("PUT /v1/threads/{threadId}/draft", { params: { threadId: thread.id }, body: toBody(values) });
    await queryClient.invalidateQueries({ queryKey: threadKey(thread.id) });
    toast.success("Draft saved", "Your team sees it on this thread.");
  });

  // What the editor shows is what goes out: saved as the draft first, then sent as it (the draft is gone after).
  const send = submitToApi(form, ["subject", "text_content"], async (values) => {
    if (values.text_content.trim() === "" && !draft?.html_content) {
      form.setError("text_content", { type: "required", message: "Write the reply first" }, { shouldFocus: true });
      return;
    }
    await apiCall("PUT /v1/threads/{threadId}/draft", { params: { threadId: thread.id }, body: toBody(values) });
    const sent = await apiCall("POST /v1/threads/{threadId}/reply", { params: { threadId: thread.id }, body: { use_draft: true } });
    form.reset({ subject: "", text_content: "" });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: threadKey(thread.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.threads.list() }),
    ]);
    toast.success("Reply sent", `To ${sent.to_email}, from ${sent.from_email}.`);
  });
  const sendNow = async () => {
    setSending(true);
    try {
      await send();
    } finally {
      setSending(false);
    }
  };
  const replyAs = defaultSubject(thread);

  const discard = async () => {
    try {
      await apiCall("DELETE /v1/threads/{threadId}/draft", { params: { threadId: thread.id } });
      await queryClient.invalidateQueries({ queryKey: threadKey(thread.id) });
      toast.success("Draft discarded");
    } catch (error) {
      toast.error(error, "Could not discard the draft");
      throw error;
    }
  };

  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <PenLine className="size-4 text-zinc-400" aria-hidden />
            {draft ? "Draft reply" : "Write a reply"}
          </span>
        }
        description={
          draft ? (
            <>
              Saved <RelativeTime value={draft.updated_at} />. Drafts are shared with your team; nothing is sent until someone sends it.
            </>
          ) : (
            "Save a draft reply for this thread. It is shared with your team and not sent."
          )
        }
        actions={
          draft && (
            <Button variant="secondary" size="sm" onClick={() => setDiscardOpen(true)}>
              <Trash2 aria-hidden />
              Discard draft
            </Button>
          )
        }
      />
      <form onSubmit={save} noValidate>
        <CardBody className="flex flex-col gap-3">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Subject" error={errors.subject?.message} hint={`Leave empty to reply as "${replyAs}".`}>
            <Input placeholder={replyAs} {...form.register("subject")} />
          </FormField>
          <FormField label="Reply" error={errors.text_content?.message} hint="Ctrl+Enter sends it.">
            <Textarea
              id={replyFieldId(thread.id)}
              rows={6}
              placeholder="Thanks for getting back to me…"
              onKeyDown={(event) => {
                if ((event.metaKey || event.ctrlKey) && event.key === "Enter") {
                  event.preventDefault();
                  void sendNow();
                }
              }}
              {...form.register("text_content")}
            />
          </FormField>
          {draft?.html_content && <p className="text-xs text-zinc-500">This draft also has an HTML version, kept as it is.</p>}
        </CardBody>
        <CardFooter>
          <Button type="submit" variant="secondary" loading={isSubmitting && !sending} disabled={!isDirty || isSubmitting}>
            <Save aria-hidden />
            Save draft
          </Button>
          <Button type="button" loading={sending} disabled={isSubmitting} onClick={() => void sendNow()}>
            <Send aria-hidden />
            Send reply
          </Button>
        </CardFooter>
      </form>
      <ConfirmDialog
        open={discardOpen}
        onOpenChange={setDiscardOpen}
        title="Discard this draft?"
        description="The saved reply is deleted for everyone on your team. This cannot be undone."
        confirmLabel="Discard draft"
        onConfirm={discard}
      />
    </Card>
  );
}
