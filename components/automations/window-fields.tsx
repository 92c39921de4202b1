"use client";

import { Controller, useWatch, type UseFormReturn } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { TimeZoneSelect } from "@/components/ui/time-zone-select";
import { WEEKDAYS, type Weekday } from "@/lib/domain/sending-window";
import type { SettingsValues } from "./settings-body";

const DAY_NAMES: Record<Weekday, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

/** The automation's sending window, as a broadcast's: days, hours, and whose clock. */
export function WindowFields({ form }: { form: UseFormReturn<SettingsValues> }) {
  const { control, register, formState } = form;
  const errors = formState.errors.sending_window;
  const enabled = useWatch({ control, name: "window_enabled" });
  const timezone = useWatch({ control, name: "sending_window.timezone" });
  return (
    <div role="group" aria-labelledby="automation-window-title" className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3">
      <div className="flex items-center justify-between gap-3">
        <span id="automation-window-title" className="text-sm font-medium text-zinc-800">
          Sending window
        </span>
        <Controller
          control={control}
          name="window_enabled"
          render={({ field }) => <Switch aria-label="Send only within a window" checked={field.value} onCheckedChange={(checked) => field.onChange(checked)} />}
        />
      </div>
      <p className="text-[13px] text-zinc-500">An email due outside it waits for the next opening, in each contact&apos;s time zone or a fixed one.</p>
      {enabled && (
        <>
          <Controller
            control={control}
            name="sending_window.days"
            render={({ field }) => (
              <div className="flex flex-wrap gap-3" role="group" aria-label="Days">
                {WEEKDAYS.map((day) => (
                  <div key={day} className="flex items-center gap-1.5">
                    <Checkbox
                      id={`automation-window-${day}`}
                      checked={field.value.includes(day)}
                      onCheckedChange={(checked) => field.onChange(checked ? [...field.value, day] : field.value.filter((d) => d !== day))}
                    />
                    <Label htmlFor={`automation-window-${day}`} className="font-normal">
                      {DAY_NAMES[day]}
                    </Label>
                  </div>
                ))}
              </div>
            )}
          />
          {errors?.days?.message && <p className="text-[13px] text-red-600">{errors.days.message}</p>}
          <div className="grid gap-3 sm:grid-cols-3">
            <FormField label="From" error={errors?.start?.message}>
              <Input type="time" {...register("sending_window.start")} />
            </FormField>
            <FormField label="Until" error={errors?.end?.message}>
              <Input type="time" {...register("sending_window.end")} />
            </FormField>
            <FormField label="Time zone" error={errors?.timezone?.message}>
              <TimeZoneSelect current={timezone} leading={[{ value: "contact", label: "Each contact's own" }]} {...register("sending_window.timezone")} />
            </FormField>
          </div>
        </>
      )}
    </div>
  );
}
