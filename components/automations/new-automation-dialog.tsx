"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm, useWatch } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { useSegments } from "@/lib/client/resources/segments";
import { createAutomationInput, type CreateAutomationInput } from "@/lib/schemas/automations";

type Values = { name: string; trigger_type: "event" | "segment_entered"; event: string; segment_id: string };

const toBody = (values: Values): CreateAutomationInput => ({
  name: values.name,
  trigger: values.trigger_type === "event" ? { type: "event", event: values.event.trim() } : { type: "segment_entered", segment_id: values.segment_id },
  steps: [],
});

const fieldFor = (path: string) => (path === "trigger.event" ? "event" : path === "trigger.segment_id" ? "segment_id" : undefined);
const resolver = bodyResolver<Values, typeof createAutomationInput>(createAutomationInput, toBody, fieldFor);

/** A name and a trigger make a draft; the builder it opens adds the steps. */
export function NewAutomationDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const segments = useSegments();
  const form = useForm<Values>({ resolver, defaultValues: { name: "", trigger_type: "event", event: "", segment_id: "" } });
  const { errors } = form.formState;
  const triggerType = useWatch({ control: form.control, name: "trigger_type" });

  const submit = submitToApi(form, ["name", "event", "segment_id"], async (values) => {
    const created = await apiCall("POST /v1/automations", { body: toBody(values) });
    queryClient.setQueryData(queryKeys.automations.detail(created.id), created);
    void queryClient.invalidateQueries({ queryKey: queryKeys.automations.list() });
    toast.success("Draft created", "Add its steps, then activate it.");
    router.push(`/automations/${created.id}`);
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New automation"
      description="Name it and say what starts it. You add the steps in the builder."
      form={form}
      formId="new-automation"
      onSubmit={submit}
      submitLabel="Create draft"
    >
      <FormField label="Name" error={errors.name?.message} hint="Only your team sees this." required>
        <Input autoFocus placeholder="Welcome series" {...form.register("name")} />
      </FormField>
      <FormField label="Starts when">
        <NativeSelect
          options={[
            { value: "event", label: "An event happens" },
            { value: "segment_entered", label: "A contact enters a segment" },
          ]}
          {...form.register("trigger_type")}
        />
      </FormField>
      {triggerType === "event" ? (
        <FormField label="Event" error={errors.event?.message} hint="The name your application sends to POST /v1/events, e.g. signed_up." required>
          <Input placeholder="signed_up" {...form.register("event")} />
        </FormField>
      ) : (
        <FormField label="Segment" error={errors.segment_id?.message} required>
          <NativeSelect
            options={[{ value: "", label: "Choose a segment" }, ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            {...form.register("segment_id")}
          />
        </FormField>
      )}
    </FormDialog>
  );
}
