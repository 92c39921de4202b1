"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { RadioCards } from "@/components/ui/radio-cards";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import type { Topic } from "@/lib/client/resources/topics";
import { createTopicInput } from "@/lib/schemas/topics";

type Values = { name: string; description: string; default_subscription: "opt_in" | "opt_out" };

const toBody = (values: Values) => ({ ...values, description: values.description.trim() === "" ? null : values.description });
const resolver = bodyResolver<Values, typeof createTopicInput>(createTopicInput, toBody);

/** The two defaults in the words of decisions.md, where a marketer chooses them. */
const subscriptionOptions = [
  { value: "opt_out", label: "Everyone, until they leave it", description: "Contacts receive it unless they switch it off on their preference page." },
  { value: "opt_in", label: "Only those who join it", description: "Contacts receive nothing of it until they switch it on." },
];

/** Creates a topic, or changes one's name, description and default. */
export function TopicDialog({ open, onOpenChange, topic }: { open: boolean; onOpenChange: (open: boolean) => void; topic?: Topic }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver, defaultValues: { name: "", description: "", default_subscription: "opt_out" } });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset({ name: topic?.name ?? "", description: topic?.description ?? "", default_subscription: topic?.default_subscription ?? "opt_out" });
  }, [open, topic, form]);

  const submit = submitToApi(form, ["name", "description", "default_subscription"], async (values) => {
    const saved = topic
      ? await apiCall("PUT /v1/topics/{id}", { params: { id: topic.id }, body: toBody(values) })
      : await apiCall("POST /v1/topics", { body: toBody(values) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.topics.all() });
    toast.success(topic ? "Topic saved" : `Created ${saved.name}`);
    onOpenChange(false);
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={topic ? "Edit topic" : "Create topic"}
      description="A kind of email (news, offers, events). A broadcast sent to a topic reaches only the contacts who receive it."
      form={form}
      formId="topic-form"
      onSubmit={submit}
      submitLabel={topic ? "Save topic" : "Create topic"}
    >
      <FormField label="Name" error={errors.name?.message} hint="Contacts see it on their preference page." required>
        <Input autoFocus placeholder="Product news" {...form.register("name")} />
      </FormField>
      <FormField label="Description" error={errors.description?.message} hint="Optional. Shown under the name on the preference page.">
        <Textarea rows={2} placeholder="New features, once a month." {...form.register("description")} />
      </FormField>
      <FormField label="Who receives it" error={errors.default_subscription?.message}>
        <Controller
          control={form.control}
          name="default_subscription"
          render={({ field }) => (
            <RadioCards aria-label="Who receives it" value={field.value} onValueChange={field.onChange} options={subscriptionOptions} columns={1} />
          )}
        />
      </FormField>
    </FormDialog>
  );
}
