"use client";

import { Controller, useFormContext, type FieldErrors } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import type { TrackingValues } from "./tracking-values";

const switches = [
  { name: "track_opens", label: "Track opens", hint: "A 1×1 pixel records when the email is opened." },
  { name: "track_clicks", label: "Track clicks", hint: "Links go through a redirect that records each click." },
] as const;

const parameters = [
  { key: "source", label: "UTM source", placeholder: "newsletter" },
  { key: "medium", label: "UTM medium", placeholder: "email" },
  { key: "campaign", label: "UTM campaign", placeholder: "spring-sale" },
] as const;

/**
 * The tracking switches and UTM parameters of a broadcast or a follow-up, inside a form whose
 * values include TrackingValues. `disabled`: the broadcast can no longer be edited.
 */
export function TrackingFields({ idPrefix, disabled = false }: { idPrefix: string; disabled?: boolean }) {
  const { control, register, formState } = useFormContext<TrackingValues>();
  const errors = formState.errors as FieldErrors<TrackingValues>;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {switches.map(({ name, label, hint }) => (
          <div key={name} className="flex items-start justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5">
            <div className="min-w-0">
              <Label htmlFor={`${idPrefix}-${name}`}>{label}</Label>
              <p id={`${idPrefix}-${name}-hint`} className="mt-0.5 text-[13px] text-zinc-500">
                {hint}
              </p>
            </div>
            <Controller
              control={control}
              name={name}
              render={({ field }) => (
                <Switch
                  id={`${idPrefix}-${name}`}
                  aria-describedby={`${idPrefix}-${name}-hint`}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                  disabled={disabled}
                />
              )}
            />
          </div>
        ))}
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {parameters.map(({ key, label, placeholder }) => (
          <FormField key={key} label={label} error={errors.utm?.[key]?.message}>
            <Input placeholder={placeholder} autoCapitalize="none" spellCheck={false} {...register(`utm.${key}`)} />
          </FormField>
        ))}
      </div>
      <p className="text-[13px] text-zinc-500">
        UTM parameters are added to every link, tracked or not, unless the link already has that parameter. Opens and clicks are recorded only while tracking is
        on for the organization (Settings → Organization).
      </p>
    </div>
  );
}
