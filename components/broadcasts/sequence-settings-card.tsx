"use client";

import Link from "next/link";
import { Controller, useFormContext } from "react-hook-form";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Label } from "@/components/ui/label";
import { MultiSelect } from "@/components/ui/multi-select";
import { RadioCards } from "@/components/ui/radio-cards";
import { Switch } from "@/components/ui/switch";
import { useSegments } from "@/lib/client/resources/segments";
import { useEditorLocked } from "./editor-lock";
import type { EditorValues } from "./editor-values";
import { firstError } from "./first-error";

const modes = [
  { value: "sales", label: "Sales", description: "Follow-ups are threaded replies from the same inbox, like a person following up." },
  { value: "marketing", label: "Marketing", description: "Each step is a fresh, standalone email with its own subject." },
];

export function SequenceSettingsCard() {
  const { control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const locked = useEditorLocked();
  const segments = useSegments();
  const options = (segments.data ?? []).map((segment) => ({
    value: segment.id,
    label: segment.name,
    description: `${segment.contacts_count.toLocaleString()} contacts`,
  }));
  const empty = (
    <>
      No segments yet.{" "}
      <Link href="/segments" className="font-medium text-brand-600 hover:underline">
        Create one
      </Link>
      .
    </>
  );

  return (
    <Card>
      <CardHeader
        title="Sequence"
        description="How follow-up steps are sent, and who leaves the sequence early. Replies always stop it; an out-of-office reply holds it until the person is back."
      />
      <CardBody className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <Label id="sequence-mode-label">Sequence mode</Label>
          <Controller
            control={control}
            name="sequence_mode"
            render={({ field }) => (
              <RadioCards
                aria-labelledby="sequence-mode-label"
                value={field.value}
                onValueChange={(value) => field.onChange(value as EditorValues["sequence_mode"])}
                options={modes}
              />
            )}
          />
        </div>
        <div className="flex items-start justify-between gap-6">
          <div className="min-w-0">
            <Label htmlFor="stop-on-company-reply">Stop for the whole company on a reply</Label>
            <p className="mt-0.5 text-sm text-zinc-500" id="stop-on-company-reply-hint">
              A reply from anyone at a recipient&apos;s domain ends the sequence for their colleagues there (not at gmail.com and other free-mail domains).
            </p>
          </div>
          <Controller
            control={control}
            name="stop_on_company_reply"
            render={({ field }) => (
              <Switch
                id="stop-on-company-reply"
                aria-describedby="stop-on-company-reply-hint"
                checked={field.value}
                disabled={locked}
                onCheckedChange={(checked) => field.onChange(checked)}
              />
            )}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Exit if in any of these segments"
            error={firstError(errors.sequence_exit_conditions?.exit_if_in_segment_ids)}
            hint="E.g. Customers: stop following up once someone buys."
          >
            <Controlled
              control={control}
              name="sequence_exit_conditions.exit_if_in_segment_ids"
              render={({ field, aria }) => (
                <MultiSelect {...aria} value={field.value} onChange={field.onChange} options={options} placeholder="No exit rule" emptyText={empty} />
              )}
            />
          </FormField>
          <FormField
            label="Exit if missing from any of these segments"
            error={firstError(errors.sequence_exit_conditions?.exit_if_not_in_segment_ids)}
            hint="E.g. Active leads: stop once someone leaves it."
          >
            <Controlled
              control={control}
              name="sequence_exit_conditions.exit_if_not_in_segment_ids"
              render={({ field, aria }) => (
                <MultiSelect {...aria} value={field.value} onChange={field.onChange} options={options} placeholder="No exit rule" emptyText={empty} />
              )}
            />
          </FormField>
        </div>
      </CardBody>
    </Card>
  );
}
