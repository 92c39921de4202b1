"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form-field";
import { TimeZoneSelect } from "@/components/ui/time-zone-select";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";

/** The organization's time zone: the one sending windows and business days use for contacts without their own. */
export function TimeZoneCard({ timezone, editable }: { timezone: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const form = useForm<{ timezone: string }>({ defaultValues: { timezone } });
  const current = useWatch({ control: form.control, name: "timezone" });
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = submitToApi(form, ["timezone"], async (values) => {
    const saved = await apiCall("PUT /v1/organization", { body: { timezone: values.timezone } });
    queryClient.setQueryData(queryKeys.organization(), saved);
    form.reset({ timezone: saved.timezone });
    toast.success("Time zone saved", `Contacts without a time zone of their own are reached in ${saved.timezone}.`);
  });
  return (
    <Card>
      <CardHeader
        title="Time zone"
        description="Sending windows in the contact's time zone use it for contacts who have none, and business-day follow-ups count weekdays in it."
      />
      <form id="organization-time-zone" onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Organization time zone" error={errors.timezone?.message} className="max-w-md">
            <TimeZoneSelect current={current} disabled={!editable} {...form.register("timezone")} />
          </FormField>
        </CardBody>
        {editable && (
          <CardFooter>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Save time zone
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}
