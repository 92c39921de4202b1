"use client";

import { Plus, Trophy, X } from "lucide-react";
import { useFormContext, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Controlled } from "@/components/ui/controlled";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { formatDateTime } from "@/components/ui/date";
import type { Broadcast } from "./broadcast-types";
import { useEditorLocked } from "./editor-lock";
import type { EditorValues } from "./editor-values";

const MAX_VARIANTS = 4;
const letter = (index: number) => "ABCD"[index];

const metricOptions = [
  { value: "unique_opens", label: "Most opened (unique opens by people)" },
  { value: "unique_clicks", label: "Most clicked (unique clicks by people)" },
];

const HOUR = 60;
const waitPresets = [1, 2, 4, 8, 12, 24, 48, 72, 168].map((hours) => ({
  value: String(hours * HOUR),
  label: hours < 24 ? `${hours} hour${hours === 1 ? "" : "s"}` : hours === 168 ? "7 days" : `${hours / 24} day${hours === 24 ? "" : "s"}`,
}));

/** The wait choices, with a saved value that is not a preset (set through the API) kept as it is. */
function waitOptions(current: string) {
  if (!current || waitPresets.some((option) => option.value === current)) return waitPresets;
  return [...waitPresets, { value: current, label: `${current} minutes` }];
}

/** What the test has done so far, for a broadcast that has started. */
function TestProgress({ broadcast }: { broadcast: Broadcast }) {
  if (broadcast.ab_winner_index !== null) {
    return (
      <p className="flex items-center gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        <Trophy className="size-4" aria-hidden />
        Variant {letter(broadcast.ab_winner_index)} won; the rest of the audience got it. The Report tab compares the variants.
      </p>
    );
  }
  if (broadcast.ab_decide_at) {
    return (
      <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800">
        The test share is on its way. The winner is chosen once it has all gone out and had its wait (at {formatDateTime(broadcast.ab_decide_at)} at the
        earliest), then sent to everyone else.
      </p>
    );
  }
  return null;
}

/** A/B test of the first email: two to four variants, the test share, how the winner is chosen and when. */
export function AbTestCard({ broadcast }: { broadcast: Broadcast }) {
  const { control, register, formState, setValue, getValues } = useFormContext<EditorValues>();
  const { errors } = formState;
  const locked = useEditorLocked();
  // The variants as a plain array value, not useFieldArray: with the form's `values` (the saved
  // broadcast), a field array marked the freshly loaded form dirty, and its autosave and leave guard with it.
  const variants = useWatch<EditorValues, "variants">({ name: "variants" }) ?? [];
  const setVariants = (next: EditorValues["variants"]) => setValue("variants", next, { shouldDirty: true, shouldValidate: formState.isSubmitted });
  const enabled = useWatch<EditorValues, "ab_test.enabled">({ name: "ab_test.enabled" });
  const percent = Number(useWatch<EditorValues, "ab_test.test_percent">({ name: "ab_test.test_percent" })) || 0;
  const wait = useWatch<EditorValues, "ab_test.wait_minutes">({ name: "ab_test.wait_minutes" });
  const subject = useWatch<EditorValues, "subject">({ name: "subject" });
  const share = variants.length ? Math.floor((percent / variants.length) * 10) / 10 : 0;

  return (
    <Card>
      <CardHeader
        title="A/B test"
        description="Send variants of the subject (and content) to a share of the audience first; the one people respond to best goes to the rest."
        actions={
          <Controlled
            control={control}
            name="ab_test.enabled"
            render={({ field }) => (
              <Switch
                aria-label="Test variants of this email"
                checked={field.value}
                disabled={locked}
                onCheckedChange={(on) => {
                  field.onChange(on);
                  // The first variant starts as the broadcast's own subject.
                  if (on && !getValues("variants.0.subject")) setValue("variants.0.subject", subject, { shouldDirty: true });
                }}
              />
            )}
          />
        }
      />
      <CardBody className="flex flex-col gap-4">
        <TestProgress broadcast={broadcast} />
        {!enabled ? (
          <p className="text-sm text-zinc-500">Off: everyone gets the same email.</p>
        ) : (
          <>
            {typeof errors.ab_test?.message === "string" && <p className="text-sm text-red-600">{errors.ab_test.message}</p>}
            {typeof errors.variants?.message === "string" && <p className="text-sm text-red-600">{errors.variants.message}</p>}
            <ol className="flex flex-col gap-3" aria-label="Variants">
              {variants.map((_, index) => (
                <li key={index} className="rounded-lg border border-zinc-200 p-3">
                  <div className="flex items-start gap-2">
                    <FormField label={`Variant ${letter(index)} subject`} error={errors.variants?.[index]?.subject?.message} className="flex-1" required>
                      <Input {...register(`variants.${index}.subject`)} />
                    </FormField>
                    {variants.length > 2 && !locked && (
                      <Button
                        variant="ghost"
                        size="icon"
                        className="mt-6"
                        aria-label={`Remove variant ${letter(index)}`}
                        onClick={() => setVariants(getValues("variants").filter((__, i) => i !== index))}
                      >
                        <X aria-hidden />
                      </Button>
                    )}
                  </div>
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer text-zinc-600">Own content (optional)</summary>
                    <FormField
                      label={`Variant ${letter(index)} HTML`}
                      error={errors.variants?.[index]?.html_content?.message}
                      hint="Leave empty to send the broadcast's content with this subject."
                      className="mt-2"
                    >
                      <Textarea rows={4} className="font-mono text-xs" {...register(`variants.${index}.html_content`)} />
                    </FormField>
                  </details>
                </li>
              ))}
            </ol>
            {variants.length < MAX_VARIANTS && !locked && (
              <Button
                variant="secondary"
                size="sm"
                className="self-start"
                onClick={() => setVariants([...getValues("variants"), { subject: "", html_content: "", text_content: null }])}
              >
                <Plus aria-hidden />
                Add variant
              </Button>
            )}
            <div className="grid gap-4 sm:grid-cols-3">
              <FormField
                label="Test share (%)"
                error={errors.ab_test?.test_percent?.message}
                hint={percent ? `${share} % of the audience per variant, the rest get the winner.` : "5 to 50 %."}
              >
                <Input type="number" min={5} max={50} step={1} {...register("ab_test.test_percent")} />
              </FormField>
              <FormField label="Pick the winner by" error={errors.ab_test?.metric?.message}>
                <NativeSelect {...register("ab_test.metric")} options={metricOptions} />
              </FormField>
              <FormField label="Choose the winner after" error={errors.ab_test?.wait_minutes?.message} hint="Counted from when the test share is out.">
                <NativeSelect {...register("ab_test.wait_minutes")} options={waitOptions(wait)} />
              </FormField>
            </div>
            <p className="text-xs text-zinc-500">
              Ties, and a test nobody opened or clicked, go to variant A. Rates are of the emails that could show them; opens by Apple&apos;s privacy proxy and
              by scanners do not count, Gmail&apos;s and Yahoo&apos;s image proxies do (they fetch as the person opens).
            </p>
          </>
        )}
      </CardBody>
    </Card>
  );
}
