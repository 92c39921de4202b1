"use client";

import { useFormContext, useWatch } from "react-hook-form";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Select } from "@/components/ui/select";
import { useEditorLocked } from "./editor-lock";
import type { EditorValues } from "./editor-values";
import { ScheduleInput, useTimeZoneLabel } from "./schedule-input";
import { sendingSpeedOptions } from "./sending-speeds";

export function DeliveryCard() {
  const { control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const speed = useWatch<EditorValues, "sending_speed">({ name: "sending_speed" });
  const zone = useTimeZoneLabel();
  const locked = useEditorLocked();
  const described = sendingSpeedOptions.find((option) => option.value === (speed || "auto"));

  return (
    <Card>
      <CardHeader title="Delivery" description="How fast it goes out, and when." />
      <CardBody className="grid gap-4 sm:grid-cols-2">
        <FormField label="Sending speed" error={errors.sending_speed?.message} hint={speed ? described?.description : `Not set: ${described?.description}`}>
          <Controlled
            control={control}
            name="sending_speed"
            render={({ field, aria }) => (
              <Select {...aria} value={field.value || undefined} onValueChange={field.onChange} options={sendingSpeedOptions} placeholder="Auto (default)" />
            )}
          />
        </FormField>
        <FormField label="Schedule" error={errors.scheduled_at?.message} hint={`In ${zone}. Use Schedule in the sending panel to confirm it.`}>
          <Controlled
            control={control}
            name="scheduled_at"
            render={({ field, aria }) => (
              <ScheduleInput
                {...aria}
                disabled={locked}
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
              />
            )}
          />
        </FormField>
      </CardBody>
    </Card>
  );
}
