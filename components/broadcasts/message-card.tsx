"use client";

import { useFormContext, useWatch } from "react-hook-form";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { TagInput } from "@/components/ui/tag-input";
import { cn } from "@/lib/client/cn";
import { limits } from "@/lib/schemas/common";
import type { EditorValues } from "./editor-values";
import { useEditorLocked } from "./editor-lock";
import { firstError } from "./first-error";

function PreviewTextCounter() {
  const value = useWatch<EditorValues, "preview_text">({ name: "preview_text" }) ?? "";
  const over = value.length > limits.previewText;
  return (
    <span
      className={cn("text-xs tabular-nums", over ? "font-medium text-red-600" : value.length > limits.previewText * 0.9 ? "text-amber-700" : "text-zinc-500")}
      aria-live="polite"
    >
      {value.length}/{limits.previewText}
    </span>
  );
}

export function MessageCard() {
  const { register, control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const locked = useEditorLocked();
  return (
    <Card>
      <CardHeader title="Message" description="What recipients see in their inbox before they open it." />
      <CardBody className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" error={errors.name?.message} hint="Internal; recipients never see it." required>
          <Input {...register("name")} />
        </FormField>
        <FormField label="Tags" error={firstError(errors.tags)} hint="Lowercase; press Enter or comma to add.">
          <Controlled
            control={control}
            name="tags"
            render={({ field, aria }) => (
              <TagInput
                {...aria}
                disabled={locked}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                max={limits.tags}
                maxLength={limits.tag}
                placeholder="newsletter, q4"
              />
            )}
          />
        </FormField>
        <FormField
          label="Subject"
          error={errors.subject?.message}
          className="sm:col-span-2"
          hint="Use {{first_name|there}} to personalize, with a fallback after the bar."
          required
        >
          <Input {...register("subject")} />
        </FormField>
        <FormField
          label="Preview text"
          error={errors.preview_text?.message}
          className="sm:col-span-2"
          hint="Shown after the subject in most inboxes. Leave empty to let the email client pick the first lines."
          aside={<PreviewTextCounter />}
        >
          <Input {...register("preview_text")} placeholder="A one-line teaser" />
        </FormField>
      </CardBody>
    </Card>
  );
}
