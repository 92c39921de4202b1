"use client";

import { useForm, useWatch } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Checkbox } from "@/components/ui/checkbox";
import { Controlled } from "@/components/ui/controlled";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { useInboxes } from "@/lib/client/resources/inboxes";
import { useSegments } from "@/lib/client/resources/segments";
import { updateAutomationInput } from "@/lib/schemas/automations";
import { OFFICE_HOURS, settingsBody, type SettingsValues } from "./settings-body";
import { WindowFields } from "./window-fields";
import type { AutomationDraft } from "./use-automation-draft";

function settingsValues(draft: AutomationDraft): SettingsValues {
  return {
    name: draft.name,
    trigger_type: draft.trigger.type,
    event: draft.trigger.type === "event" ? draft.trigger.event : "",
    segment_id: draft.trigger.type === "segment_entered" ? draft.trigger.segment_id : "",
    reentry: draft.reentry,
    sequence_mode: draft.sequence_mode,
    inbox_ids: draft.inbox_ids,
    from_email: draft.from_email ?? "",
    from_name: draft.from_name ?? "",
    window_enabled: draft.sending_window !== null,
    sending_window: draft.sending_window ?? OFFICE_HOURS,
  };
}

const fieldFor = (path: string) =>
  path === "trigger.event"
    ? "event"
    : path === "trigger.segment_id"
      ? "segment_id"
      : path.startsWith("sending_window.")
        ? path.split(".").slice(0, 2).join(".")
        : path.split(".")[0];

type SettingsDialogProps = {
  open: boolean;
  draft: AutomationDraft;
  onClose: () => void;
  onApply: (values: SettingsValues) => void;
};

/** The trigger and the rules of the whole automation: who enters, how often, and who it sends as. */
export function SettingsDialog({ open, draft, onClose, onApply }: SettingsDialogProps) {
  return open ? <SettingsForm draft={draft} onClose={onClose} onApply={onApply} /> : null;
}

function SettingsForm({ draft, onClose, onApply }: Omit<SettingsDialogProps, "open">) {
  const segments = useSegments();
  const inboxes = useInboxes();
  const form = useForm<SettingsValues>({
    defaultValues: settingsValues(draft),
    resolver: bodyResolver<SettingsValues, typeof updateAutomationInput>(updateAutomationInput, (values) => settingsBody(values, draft), fieldFor),
  });
  const { errors } = form.formState;
  const triggerType = useWatch({ control: form.control, name: "trigger_type" });
  const mode = useWatch({ control: form.control, name: "sequence_mode" });

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Trigger and settings"
      description="Who enters the automation, how often, and who its emails come from."
      size="lg"
      form={form}
      formId="automation-settings"
      onSubmit={form.handleSubmit(onApply)}
      submitLabel="Apply"
    >
      <FormField label="Name" error={errors.name?.message} required>
        <Input {...form.register("name")} />
      </FormField>
      <FormField label="Starts when" error={errors.trigger_type?.message}>
        <NativeSelect
          options={[
            { value: "event", label: "An event happens (custom or built-in)" },
            { value: "segment_entered", label: "A contact enters a segment" },
          ]}
          {...form.register("trigger_type")}
        />
      </FormField>
      {triggerType === "event" ? (
        <FormField
          label="Event"
          error={errors.event?.message}
          hint="A name your application sends to POST /v1/events, or a built-in event such as contact.created."
          required
        >
          <Input placeholder="signed_up" {...form.register("event")} />
        </FormField>
      ) : (
        <FormField label="Segment" error={errors.segment_id?.message} hint="Contacts added to it (or newly matching its filter) from now on enter." required>
          <NativeSelect
            options={[{ value: "", label: "Choose a segment" }, ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            {...form.register("segment_id")}
          />
        </FormField>
      )}
      <FormField label="Re-entry" error={errors.reentry?.message}>
        <NativeSelect
          options={[
            { value: "never", label: "A contact goes through it once" },
            { value: "after_exit", label: "A contact may enter again after finishing" },
          ]}
          {...form.register("reentry")}
        />
      </FormField>
      <FormField
        label="Mode"
        error={errors.sequence_mode?.message}
        hint={mode === "sales" ? "Each run's emails go from one inbox as one thread; a reply ends it." : undefined}
      >
        <NativeSelect
          options={[
            { value: "marketing", label: "Marketing: each email stands alone" },
            { value: "sales", label: "Sales: threaded follow-ups from one inbox, a reply ends it" },
          ]}
          {...form.register("sequence_mode")}
        />
      </FormField>
      <FormField label="Inboxes" error={errors.inbox_ids?.message} hint="Runs take one in turn and keep it. Without inboxes, emails go through the relay.">
        <Controlled
          control={form.control}
          name="inbox_ids"
          render={({ field }) => (
            <div className="flex max-h-40 flex-col gap-2 overflow-y-auto rounded-lg border border-zinc-200 p-3">
              {(inboxes.data ?? []).length === 0 && <p className="text-sm text-zinc-500">No inboxes yet: add one in Settings.</p>}
              {(inboxes.data ?? []).map((inbox) => (
                <label key={inbox.id} className="flex items-center gap-2 text-sm text-zinc-800">
                  <Checkbox
                    checked={field.value.includes(inbox.id)}
                    onCheckedChange={(checked) => field.onChange(checked ? [...field.value, inbox.id] : field.value.filter((id) => id !== inbox.id))}
                  />
                  {inbox.name} <span className="text-zinc-500">{inbox.from_email}</span>
                </label>
              ))}
            </div>
          )}
        />
      </FormField>
      <div className="grid grid-cols-2 gap-3">
        <FormField label="From address" error={errors.from_email?.message} hint="For send steps that name none.">
          <Input type="email" placeholder="hello@yourcompany.com" {...form.register("from_email")} />
        </FormField>
        <FormField label="From name" error={errors.from_name?.message}>
          <Input placeholder="Your company" {...form.register("from_name")} />
        </FormField>
      </div>
      <WindowFields form={form} />
    </FormDialog>
  );
}
