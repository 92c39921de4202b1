"use client";

import Link from "next/link";
import { useFormContext, useWatch } from "react-hook-form";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/select";
import { useSegments } from "@/components/segments/use-segments";
import type { EditorValues } from "./editor-values";
import { pickerOptions } from "./option-lists";
import { useTopics } from "./use-sender-options";

const contactsCount = (count: number) => `${count.toLocaleString()} contact${count === 1 ? "" : "s"}`;

export function AudienceCard() {
  const { control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const segmentId = useWatch<EditorValues, "segment_id">({ name: "segment_id" });
  const segments = useSegments();
  const topics = useTopics();
  const segment = segments.data?.find((candidate) => candidate.id === segmentId);

  return (
    <Card>
      <CardHeader title="Audience" description="Who receives it. Unsubscribed and suppressed addresses are always left out." />
      <CardBody className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Segment"
          required
          error={errors.segment_id?.message}
          hint={
            segment ? (
              `${contactsCount(segment.contacts_count)} in this segment.`
            ) : segments.isSuccess && segments.data.length === 0 ? (
              <>
                No segments yet.{" "}
                <Link href="/segments" className="font-medium text-brand-600 hover:underline">
                  Create one
                </Link>{" "}
                to send to part of your list.
              </>
            ) : (
              "Required to send. Its subscribed contacts receive the broadcast."
            )
          }
        >
          <Controlled
            control={control}
            name="segment_id"
            render={({ field, aria }) => (
              <NativeSelect {...aria}
                name={field.name}
                value={field.value}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value)}
                options={pickerOptions(segments.data, (s) => `${s.name} (${s.contacts_count.toLocaleString()})`, "Choose a segment", field.value, segments.isPending)}
              />
            )}
          />
        </FormField>
        <FormField label="Topic" error={errors.topic_id?.message} hint="Categorizes the broadcast, so contacts can opt out of this kind of email.">
          <Controlled
            control={control}
            name="topic_id"
            render={({ field, aria }) => (
              <NativeSelect {...aria}
                name={field.name}
                value={field.value}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value)}
                options={pickerOptions(topics.data, (t) => t.name, "No topic", field.value, topics.isPending)}
              />
            )}
          />
        </FormField>
      </CardBody>
    </Card>
  );
}
