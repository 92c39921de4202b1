"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Repeat } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Button } from "@/components/ui/button";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioCards } from "@/components/ui/radio-cards";
import { toast } from "@/components/ui/toast";
import type { Broadcast } from "@/components/broadcasts/broadcast-types";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { resendBroadcastInput, type ResendBroadcastInput } from "@/lib/schemas/broadcasts";
import type { BroadcastReport } from "@/lib/schemas/reports";
import { formatCount } from "./format";

/** "Resend to non-openers": a new draft for those who did not open (or click), with a new subject, opened in the editor. */
export function ResendButton({ broadcast, report }: { broadcast: Broadcast; report: BroadcastReport }) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const queryClient = useQueryClient();
  const first = report.steps[0]?.totals ?? report.totals;
  // Only an email that could show an open (click) tells who did not open (click) it: the report's denominators.
  const option = (value: ResendBroadcastInput["audience"], label: string, tracked: number, engaged: number, what: string) =>
    tracked === 0
      ? { value, label, description: `Not possible: its ${what} were not tracked`, disabled: true }
      : { value, label, description: `About ${formatCount(Math.max(0, tracked - engaged))} recipients` };
  const audiences = [
    option("non_openers", "Did not open", first.open_tracked, first.unique_opened, "opens"),
    option("non_clickers", "Did not click", first.click_tracked, first.unique_clicked, "clicks"),
  ];
  const form = useForm<ResendBroadcastInput>({
    // An empty name is no name: the server names the draft.
    resolver: bodyResolver<ResendBroadcastInput, typeof resendBroadcastInput>(resendBroadcastInput, (values) => ({
      ...values,
      name: values.name || undefined,
    })),
    defaultValues: { audience: first.open_tracked === 0 && first.click_tracked > 0 ? "non_clickers" : "non_openers", subject: broadcast.subject },
  });
  const submit = submitToApi(form, ["audience", "subject", "name"], async (values) => {
    const draft = await apiCall("POST /v1/broadcasts/{id}/resend", { params: { id: broadcast.id }, body: { ...values, name: values.name || undefined } });
    void queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.all() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() });
    toast.success("Resend drafted", "Check it, then send it. Whoever opens the original meanwhile is left out.");
    router.push(`/broadcasts/${draft.id}`);
  });
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Repeat aria-hidden />
        Resend to non-openers
      </Button>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title="Resend to non-openers"
        description="A new draft with this email's content for the recipients who did not open (or click) it, with a new subject."
        form={form}
        formId="resend-broadcast"
        onSubmit={submit}
        submitLabel="Create the draft"
      >
        <div className="flex flex-col gap-1.5">
          <Label id="resend-audience">Send to those who</Label>
          <Controller
            control={form.control}
            name="audience"
            render={({ field }) => <RadioCards aria-labelledby="resend-audience" value={field.value} onValueChange={field.onChange} options={audiences} />}
          />
        </div>
        <FormField label="New subject" error={form.formState.errors.subject?.message} required>
          <Input {...form.register("subject")} />
        </FormField>
        <FormField label="Name" error={form.formState.errors.name?.message} hint={`By default “${broadcast.name} (resend to non-openers)”.`}>
          <Input {...form.register("name")} />
        </FormField>
      </FormDialog>
    </>
  );
}
