"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { firstError } from "@/components/broadcasts/first-error";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Checkbox } from "@/components/ui/checkbox";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { createWebhookInput, webhookEventTypes, type WebhookEventType } from "@/lib/schemas/webhooks";
import { eventGroups, webhooksKey, type CreatedWebhook, type Webhook } from "./webhook-types";

type Values = { url: string; events: WebhookEventType[] };

const resolver = bodyResolver<Values, typeof createWebhookInput>(createWebhookInput, (values) => values);

type WebhookDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The webhook to edit; without it the dialog creates one. */
  webhook?: Webhook;
  onCreated: (created: CreatedWebhook) => void;
};

function EventPicker({ value, onChange }: { value: WebhookEventType[]; onChange: (events: WebhookEventType[]) => void }) {
  const all = value.length === webhookEventTypes.length;
  const toggle = (type: WebhookEventType, on: boolean) => onChange(on ? [...value, type] : value.filter((t) => t !== type));
  return (
    <div className="flex flex-col gap-3">
      <label className="flex items-center gap-2 text-sm font-medium text-zinc-800">
        <Checkbox
          checked={all ? true : value.length ? "indeterminate" : false}
          onCheckedChange={(checked) => onChange(checked === true ? [...webhookEventTypes] : [])}
        />
        All events
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        {eventGroups.map((group) => (
          <fieldset key={group.label} className="flex flex-col gap-1.5">
            <legend className="mb-1 text-xs font-medium tracking-wide text-zinc-500 uppercase">{group.label}</legend>
            {group.events.map((event) => (
              <label key={event.type} className="flex items-start gap-2 rounded-md px-1 py-0.5 hover:bg-zinc-50">
                <Checkbox className="mt-0.5" checked={value.includes(event.type)} onCheckedChange={(checked) => toggle(event.type, checked === true)} />
                <span className="min-w-0">
                  <span className="block font-mono text-[13px] text-zinc-900">{event.type}</span>
                  <span className="block text-xs text-zinc-500">{event.description}</span>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
    </div>
  );
}

/** Creates a webhook (its secret is shown once afterwards) or changes one's URL and events. */
export function WebhookDialog({ open, onOpenChange, webhook, onCreated }: WebhookDialogProps) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver, defaultValues: { url: "", events: [] } });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset({ url: webhook?.url ?? "", events: webhook?.events ?? ["email.delivered", "email.bounced", "email.complained"] });
  }, [open, webhook, form]);

  const submit = submitToApi(form, ["url", "events"], async (values) => {
    if (webhook) {
      await apiCall("PUT /v1/webhooks/{id}", { params: { id: webhook.id }, body: values });
      toast.success("Webhook saved");
    } else {
      onCreated(await apiCall("POST /v1/webhooks", { body: values }));
    }
    await queryClient.invalidateQueries({ queryKey: webhooksKey });
    onOpenChange(false);
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={webhook ? "Edit webhook" : "Add webhook"}
      description="Events are POSTed to your URL as JSON, signed on the Standard Webhooks scheme, and retried with backoff when it fails."
      form={form}
      formId="webhook-form"
      onSubmit={submit}
      submitLabel={webhook ? "Save webhook" : "Add webhook"}
      className="gap-5"
    >
      <FormField label="Endpoint URL" error={errors.url?.message} hint="A public https URL. Private and local addresses are never called." required>
        <Input type="url" autoFocus placeholder="https://example.com/webhooks/mail" className="font-mono text-[13px]" {...form.register("url")} />
      </FormField>
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium text-zinc-800">Events</p>
        <Controller control={form.control} name="events" render={({ field }) => <EventPicker value={field.value} onChange={field.onChange} />} />
        {firstError(errors.events) && (
          <p role="alert" className="text-[13px] font-medium text-red-600">
            {firstError(errors.events) === "Required" || errors.events?.type === "too_small" ? "Choose at least one event." : firstError(errors.events)}
          </p>
        )}
      </div>
    </FormDialog>
  );
}
