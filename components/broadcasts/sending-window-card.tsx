"use client";

import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { TimeZoneSelect } from "@/components/ui/time-zone-select";
import { WEEKDAYS, type Weekday } from "@/lib/domain/sending-window";
import { useEditorLocked } from "./editor-lock";
import type { EditorValues } from "./editor-values";
import { firstError } from "./first-error";

const DAY_NAMES: Record<Weekday, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

/** When the broadcast's emails (follow-ups included) may go out: days, hours, and whose clock. */
export function SendingWindowCard() {
  const { control, register, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const locked = useEditorLocked();
  const enabled = useWatch<EditorValues, "window_enabled">({ name: "window_enabled" });
  const timezone = useWatch<EditorValues, "sending_window.timezone">({ name: "sending_window.timezone" });
  const windowErrors = errors.sending_window;

  return (
    <Card>
      <CardHeader
        title="Sending window"
        description="Emails due outside it wait for its next opening, in each recipient's time zone or a fixed one. Business-day follow-ups count Monday to Friday in the same zone."
        actions={
          <Controller
            control={control}
            name="window_enabled"
            render={({ field }) => (
              <Switch aria-label="Send only within a window" checked={field.value} disabled={locked} onCheckedChange={(checked) => field.onChange(checked)} />
            )}
          />
        }
      />
      {enabled && (
        <CardBody className="flex flex-col gap-4">
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">Days</legend>
            <Controller
              control={control}
              name="sending_window.days"
              render={({ field }) => (
                <div className="flex flex-wrap gap-3">
                  {WEEKDAYS.map((day) => (
                    <div key={day} className="flex items-center gap-1.5">
                      <Checkbox
                        id={`window-day-${day}`}
                        checked={field.value.includes(day)}
                        disabled={locked}
                        onCheckedChange={(checked) => field.onChange(checked ? [...field.value, day] : field.value.filter((d) => d !== day))}
                      />
                      <Label htmlFor={`window-day-${day}`} className="font-normal">
                        {DAY_NAMES[day]}
                      </Label>
                    </div>
                  ))}
                </div>
              )}
            />
            {firstError(windowErrors?.days) && <p className="text-[13px] text-red-600">{firstError(windowErrors?.days)}</p>}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField label="From" error={windowErrors?.start?.message}>
              <Input type="time" {...register("sending_window.start")} />
            </FormField>
            <FormField label="Until" error={windowErrors?.end?.message} hint="Nothing starts at or after it.">
              <Input type="time" {...register("sending_window.end")} />
            </FormField>
            <FormField label="Time zone" error={windowErrors?.timezone?.message} hint="A contact without one: the organization's.">
              <TimeZoneSelect current={timezone} leading={[{ value: "contact", label: "Each contact's own" }]} {...register("sending_window.timezone")} />
            </FormField>
          </div>
        </CardBody>
      )}
    </Card>
  );
}
