"use client";

import Link from "next/link";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Callout } from "@/components/ui/callout";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { MultiSelect } from "@/components/ui/multi-select";
import { RadioCards } from "@/components/ui/radio-cards";
import type { EditorValues } from "./editor-values";
import { firstError } from "./first-error";
import { RecordSelect } from "./record-select";
import { useInboxes } from "@/lib/client/resources/inboxes";

// An unverified inbox cannot be chosen for sending (400 INBOX_NOT_VERIFIED): say so before the request does.
const unverified = (inbox: { verification: { status: string } }) => (inbox.verification.status === "verified" ? "" : " (unverified)");

const modes = [
  { value: "single", label: "One inbox", description: "Every email comes from one inbox, or from the address below." },
  { value: "rotate", label: "Rotate across inboxes", description: "Each inbox sends its share under its own name and address." },
];

export function SenderCard() {
  const { register, control, setValue, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const mode = useWatch<EditorValues, "inbox_mode">({ name: "inbox_mode" });
  const inboxes = useInboxes();
  const inboxList = inboxes.data ?? [];

  // Picking an inbox fills the sender fields with its identity, visibly, so what is saved is what is shown.
  const applyInbox = (id: string) => {
    const inbox = inboxList.find((candidate) => candidate.id === id);
    if (!inbox) return;
    setValue("from_email", inbox.from_email, { shouldDirty: true, shouldValidate: true });
    setValue("from_name", inbox.from_name ?? "", { shouldDirty: true });
    if (inbox.reply_to) setValue("reply_to", inbox.reply_to, { shouldDirty: true });
  };

  return (
    <Card>
      <CardHeader title="Sender" description="Who the email comes from and where replies go." />
      <CardBody className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <Label id="inbox-mode-label">Sending inboxes</Label>
          <Controller
            control={control}
            name="inbox_mode"
            render={({ field }) => (
              <RadioCards
                aria-labelledby="inbox-mode-label"
                value={field.value}
                onValueChange={(value) => field.onChange(value as EditorValues["inbox_mode"])}
                options={modes}
              />
            )}
          />
        </div>
        {inboxes.isSuccess && inboxList.length === 0 && (
          <Callout title="No inboxes connected">
            Connect an inbox in{" "}
            <Link href="/settings?tab=inboxes" className="font-medium underline">
              Settings
            </Link>{" "}
            to send from it, rotate across several and detect replies. Until then, emails go out from the address below.
          </Callout>
        )}
        {mode === "rotate" ? (
          <FormField
            label="Inboxes to rotate across"
            error={firstError(errors.inbox_ids)}
            hint="The sender fields below are used only where an inbox has no value of its own."
          >
            <Controlled
              control={control}
              name="inbox_ids"
              render={({ field, aria }) => (
                <MultiSelect
                  {...aria}
                  value={field.value}
                  onChange={field.onChange}
                  placeholder={inboxes.isPending ? "Loading inboxes…" : "Choose inboxes"}
                  emptyText="No inboxes yet. Connect one in Settings."
                  options={inboxList.map((inbox) => ({ value: inbox.id, label: `${inbox.name}${unverified(inbox)}`, description: inbox.from_email }))}
                />
              )}
            />
          </FormField>
        ) : (
          <FormField label="Inbox" error={errors.inbox_id?.message} hint="Choosing an inbox fills the sender fields with its identity.">
            <Controlled
              control={control}
              name="inbox_id"
              render={({ field, aria }) => (
                <RecordSelect
                  {...aria}
                  field={{
                    ...field,
                    onChange: (id) => {
                      field.onChange(id);
                      applyInbox(id);
                    },
                  }}
                  records={inboxList}
                  loading={inboxes.isPending}
                  label={(inbox) => `${inbox.name} <${inbox.from_email}>${unverified(inbox)}`}
                  none="No inbox: send from the address below"
                />
              )}
            />
          </FormField>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="From name" error={errors.from_name?.message}>
            <Input {...register("from_name")} placeholder="Ada from Acme" autoComplete="off" />
          </FormField>
          <FormField label="From address" error={errors.from_email?.message} required>
            <Input type="email" {...register("from_email")} placeholder="ada@acme.com" autoComplete="off" />
          </FormField>
          <FormField label="Reply-to" error={errors.reply_to?.message} hint="Leave empty to receive replies at the from address." className="sm:col-span-2">
            <Input type="email" {...register("reply_to")} placeholder="support@acme.com" autoComplete="off" />
          </FormField>
        </div>
      </CardBody>
    </Card>
  );
}
