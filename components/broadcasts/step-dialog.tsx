"use client";

import { useEffect } from "react";
import { Controller, FormProvider, useForm, useWatch } from "react-hook-form";
import { ContentEditor } from "@/components/email-editor/content-editor";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Controlled } from "@/components/ui/controlled";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioCards } from "@/components/ui/radio-cards";
import { NativeSelect } from "@/components/ui/select";
import { useAllTemplates } from "@/lib/client/resources/templates";
import { ApiError } from "@/lib/client/api";
import { applyServerErrors } from "@/lib/client/form-errors";
import { createStepInput, type CreateStepInput } from "@/lib/schemas/steps";
import type { Broadcast, SequenceStep } from "./broadcast-types";
import { RecordSelect } from "./record-select";
import { TrackingFields } from "./tracking-fields";
import { emptyStep, stepFieldFor, stepFields, toStepBody, toStepValues, type StepValues } from "./step-values";

const resolver = bodyResolver<StepValues, typeof createStepInput>(createStepInput, toStepBody, stepFieldFor);

const units = [
  { value: "minutes", label: "minutes" },
  { value: "hours", label: "hours" },
  { value: "days", label: "days" },
  { value: "business_days", label: "business days" },
];

const sources = [
  { value: "write", label: "Write it here", description: "In the visual editor, or as HTML and plain text, for this step only." },
  { value: "template", label: "Use a template", description: "Reuse a saved design; edits to it apply here too." },
];

type StepDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  broadcast: Broadcast;
  /** The step to edit; without it the dialog adds a new last step. */
  step?: SequenceStep;
  /** Its place among the follow-ups, from 1. */
  number: number;
  onSave: (body: CreateStepInput) => Promise<unknown>;
};

/** Adds or edits one follow-up step: the wait, the subject, and what it sends. */
export function StepDialog({ open, onOpenChange, broadcast, step, number, onSave }: StepDialogProps) {
  const form = useForm<StepValues>({ resolver, defaultValues: step ? toStepValues(step) : emptyStep });
  const { errors } = form.formState;
  const source = useWatch({ control: form.control, name: "content_source" });
  const templates = useAllTemplates();

  useEffect(() => {
    if (open) form.reset(step ? toStepValues(step) : emptyStep);
  }, [open, step, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSave(toStepBody(values));
      onOpenChange(false);
    } catch (error) {
      // The API names body paths (delay_minutes); the form shows them on its own fields.
      const mapped =
        error instanceof ApiError
          ? new ApiError(
              error.status,
              error.code,
              error.message,
              error.details.map((d) => ({ ...d, path: stepFieldFor(d.path, values) ?? d.path })),
            )
          : error;
      applyServerErrors(mapped, form.setError, stepFields);
    }
  });

  const subjectHint =
    broadcast.sequence_mode === "sales"
      ? `Leave empty to reply in the same thread ("Re: ${broadcast.subject}").`
      : "Leave empty to reuse the broadcast's subject. A fresh subject tends to work better for standalone emails.";

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={step ? `Edit follow-up ${number}` : `Add follow-up ${number}`}
      description={
        broadcast.sequence_mode === "sales"
          ? "Sent as a threaded reply from the same inbox, to recipients who have not replied."
          : "Sent as a new email to recipients still in the sequence."
      }
      form={form}
      formId="step-form"
      onSubmit={submit}
      submitLabel={step ? "Save follow-up" : "Add follow-up"}
    >
      <div className="flex flex-col gap-1.5">
        <div className="flex flex-wrap items-start gap-2">
          <FormField label="Wait" error={errors.delay_amount?.message} className="w-28">
            <Input type="number" min={0} step={1} inputMode="numeric" className="tabular-nums" {...form.register("delay_amount", { valueAsNumber: true })} />
          </FormField>
          <FormField label="Unit" className="w-40">
            <NativeSelect options={units} {...form.register("delay_unit")} />
          </FormField>
        </div>
        <p className="text-[13px] text-zinc-500">
          {number === 1 ? "Counted from when the broadcast's own email is sent." : "Counted from when the previous follow-up is sent."} Business days skip
          weekends in each recipient&apos;s time zone.
        </p>
      </div>
      <FormField label="Subject" error={errors.subject?.message} hint={subjectHint}>
        <Input placeholder={broadcast.sequence_mode === "sales" ? `Re: ${broadcast.subject}` : "Following up on my last email"} {...form.register("subject")} />
      </FormField>
      <div className="flex flex-col gap-1.5">
        <Label id="step-source-label">Content</Label>
        <Controller
          control={form.control}
          name="content_source"
          render={({ field }) => <RadioCards aria-labelledby="step-source-label" value={field.value} onValueChange={field.onChange} options={sources} />}
        />
      </div>
      {source === "template" ? (
        <FormField label="Template" error={errors.template_id?.message}>
          <Controlled
            control={form.control}
            name="template_id"
            render={({ field, aria }) => (
              <RecordSelect
                {...aria}
                field={field}
                records={templates.data}
                loading={templates.isPending}
                label={(template) => template.name}
                none="Choose a template"
              />
            )}
          />
        </FormField>
      ) : (
        // A plain-text follow-up often reads more like a personal note: Code (HTML and plain text) comes first.
        <FormProvider {...form}>
          <ContentEditor editable defaultMode="code" />
        </FormProvider>
      )}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 text-sm font-medium text-zinc-900">Tracking</legend>
        <FormProvider {...form}>
          <TrackingFields idPrefix="step" />
        </FormProvider>
      </fieldset>
    </FormDialog>
  );
}
