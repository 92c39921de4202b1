"use client";

import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Select } from "@/components/ui/select";
import type { EditorValues } from "./editor-values";
import { ScheduleInput, useTimeZoneLabel } from "./schedule-input";
import { sendingSpeedOptions } from "./sending-speeds";

export function DeliveryCard() {
  const { control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const speed = useWatch<EditorValues, "sending_speed">({ name: "sending_speed" });
  const zone = useTimeZoneLabel();
  const described = sendingSpeedOptions.find((option) => option.value === (speed || "auto"));

  return (
    <Card>
      <CardHeader title="Delivery" description="How fast it goes out, and when." />
      <CardBody className="grid gap-4 sm:grid-cols-2">
        <FormField label="Sending speed" error={errors.sending_speed?.message} hint={speed ? described?.description : `Not set: ${described?.description}`}>
          <Controller
            control={control}
            name="sending_speed"
            render={({ field }) => <Select value={field.value || undefined} onValueChange={field.onChange} options={sendingSpeedOptions} placeholder="Auto (default)" />}
          />
        </FormField>
        <FormField label="Schedule" error={errors.scheduled_at?.message} hint={`In ${zone}. Use Schedule in the sending panel to confirm it.`}>
          <Controller control={control} name="scheduled_at" render={({ field }) => <ScheduleInput ref={field.ref} value={field.value} onChange={field.onChange} onBlur={field.onBlur} name={field.name} />} />
        </FormField>
      </CardBody>
    </Card>
  );
}
