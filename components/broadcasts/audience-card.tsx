"use client";

import Link from "next/link";
import { useFormContext, useWatch } from "react-hook-form";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { useSegments } from "@/lib/client/resources/segments";
import type { EditorValues } from "./editor-values";
import { RecordSelect } from "./record-select";
import { useTopics } from "@/lib/client/resources/topics";

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
              <RecordSelect
                {...aria}
                field={field}
                records={segments.data}
                loading={segments.isPending}
                label={(s) => `${s.name} (${s.contacts_count.toLocaleString()})`}
                none="Choose a segment"
              />
            )}
          />
        </FormField>
        <FormField
          label="Topic"
          error={errors.topic_id?.message}
          hint="Only contacts who receive the topic get it (its default, or their own choice on the preference page)."
        >
          <Controlled
            control={control}
            name="topic_id"
            render={({ field, aria }) => (
              <RecordSelect {...aria} field={field} records={topics.data} loading={topics.isPending} label={(t) => t.name} none="No topic" />
            )}
          />
        </FormField>
      </CardBody>
    </Card>
  );
}
