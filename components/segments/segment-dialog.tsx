"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { createSegmentInput } from "@/lib/schemas/segments";
import { queryKeys } from "@/lib/client/query-keys";
import type { Segment } from "@/lib/client/resources/segments";

type Values = { name: string; description: string };

const toBody = (values: Values) => ({ name: values.name, description: values.description.trim() === "" ? null : values.description });
const resolver = bodyResolver<Values, typeof createSegmentInput>(createSegmentInput, toBody);

/** Creates a segment, or renames one and changes its description. */
export function SegmentDialog({ open, onOpenChange, segment }: { open: boolean; onOpenChange: (open: boolean) => void; segment?: Segment }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver, defaultValues: { name: "", description: "" } });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset({ name: segment?.name ?? "", description: segment?.description ?? "" });
  }, [open, segment, form]);

  const submit = submitToApi(form, ["name", "description"], async (values) => {
    const saved = segment
      ? await apiCall("PUT /v1/segments/{id}", { params: { id: segment.id }, body: toBody(values) })
      : await apiCall("POST /v1/segments", { body: toBody(values) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() });
    toast.success(segment ? "Segment saved" : `Created ${saved.name}`, segment ? undefined : "Add contacts to it from an import or the API.");
    onOpenChange(false);
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={segment ? "Edit segment" : "Create segment"}
      description="A named group of contacts: the audience of a broadcast, or an exit rule of a sequence."
      form={form}
      formId="segment-form"
      onSubmit={submit}
      submitLabel={segment ? "Save segment" : "Create segment"}
    >
      <FormField label="Name" error={errors.name?.message} required>
        <Input autoFocus placeholder="Trial users" {...form.register("name")} />
      </FormField>
      <FormField label="Description" error={errors.description?.message} hint="Optional. Who belongs here and why.">
        <Textarea rows={3} placeholder="Signed up in the last 30 days and not paying yet." {...form.register("description")} />
      </FormField>
    </FormDialog>
  );
}
