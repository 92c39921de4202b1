"use client";

import { useForm, useWatch } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Controlled } from "@/components/ui/controlled";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { TagInput } from "@/components/ui/tag-input";
import { Textarea } from "@/components/ui/textarea";
import { useAllTemplates } from "@/lib/client/resources/templates";
import { useSegments } from "@/lib/client/resources/segments";
import { automationStep, type StepInput } from "@/lib/schemas/automations";
import type { Filter } from "@/lib/schemas/filter-language";
import type { FlowStep } from "./flow-tree";
import { conditionKind, kindOf, type ConditionKind } from "./step-words";

type Unit = "minutes" | "hours" | "days";
const UNIT_MINUTES: Record<Unit, number> = { minutes: 1, hours: 60, days: 1440 };

type Values = {
  subject: string;
  html_content: string;
  text_content: string;
  template_id: string;
  from_email: string;
  amount: number;
  unit: Unit;
  event: string;
  condition: ConditionKind;
  filter_json: string;
  set_lines: string;
  add_tags: string[];
  remove_tags: string[];
  segment_id: string;
};

const unitOf = (minutes: number): Unit => (minutes % 1440 === 0 ? "days" : minutes % 60 === 0 ? "hours" : "minutes");

function toValues(step: FlowStep): Values {
  const minutes = step.type === "wait" ? step.minutes : step.type === "wait_for_event" ? step.timeout_minutes : 1440;
  const unit = unitOf(minutes);
  return {
    subject: step.type === "send_email" ? step.subject : "",
    html_content: step.type === "send_email" ? (step.html_content ?? "") : "",
    text_content: step.type === "send_email" ? (step.text_content ?? "") : "",
    template_id: step.type === "send_email" ? (step.template_id ?? "") : "",
    from_email: step.type === "send_email" ? (step.from_email ?? "") : "",
    amount: minutes / UNIT_MINUTES[unit],
    unit,
    event: step.type === "wait_for_event" ? step.event : "",
    condition: step.type === "condition" ? (step.filter || step.wait_result ? conditionKind(step) : "opened") : "opened",
    filter_json: step.type === "condition" && step.filter ? JSON.stringify(step.filter, null, 2) : "",
    set_lines:
      step.type === "update_contact"
        ? Object.entries(step.set ?? {})
            .map(([field, value]) => `${field} = ${value === null ? "" : String(value)}`)
            .join("\n")
        : "",
    add_tags: step.type === "update_contact" ? (step.add_tags ?? []) : [],
    remove_tags: step.type === "update_contact" ? (step.remove_tags ?? []) : [],
    segment_id: step.type === "add_to_segment" || step.type === "remove_from_segment" ? step.segment_id : "",
  };
}

const orUndefined = (text: string) => (text.trim() ? text : undefined);

/** `field = value` lines; a number or true/false is written as one, an empty value removes the key. */
function parseSet(lines: string): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const line of lines.split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf("=");
    const field = (at < 0 ? line : line.slice(0, at)).trim();
    const raw = at < 0 ? "" : line.slice(at + 1).trim();
    set[field] = raw === "" ? null : raw === "true" ? true : raw === "false" ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  return set;
}

function parseFilter(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The step the form describes, as the API takes it. */
function toStep(values: Values, step: FlowStep, automationId: string): StepInput {
  const id = step.id;
  const minutes = Math.round(Number(values.amount) * UNIT_MINUTES[values.unit]);
  switch (step.type) {
    case "send_email":
      return {
        id,
        type: "send_email",
        subject: values.subject,
        html_content: values.template_id ? undefined : orUndefined(values.html_content),
        text_content: orUndefined(values.text_content),
        template_id: orUndefined(values.template_id),
        from_email: orUndefined(values.from_email),
      };
    case "wait":
      return { id, type: "wait", minutes };
    case "wait_for_event":
      return { id, type: "wait_for_event", event: values.event.trim(), timeout_minutes: minutes };
    case "condition": {
      const branches = { yes: [], no: [] };
      if (values.condition === "event_received") return { id, type: "condition", wait_result: "event", ...branches };
      const filter =
        values.condition === "filter"
          ? parseFilter(values.filter_json)
          : { event: values.condition === "opened" ? "email.opened" : "email.clicked", op: "happened", where: { automation_id: automationId } };
      return { id, type: "condition", filter: filter as Filter, ...branches };
    }
    case "update_contact":
      return {
        id,
        type: "update_contact",
        set: parseSet(values.set_lines) as Record<string, string>,
        add_tags: values.add_tags,
        remove_tags: values.remove_tags,
      };
    case "add_to_segment":
    case "remove_from_segment":
      return { id, type: step.type, segment_id: values.segment_id };
    case "exit":
      return { id, type: "exit" };
  }
}

const FIELD_OF: Record<string, keyof Values> = {
  minutes: "amount",
  timeout_minutes: "amount",
  filter: "filter_json",
  set: "set_lines",
  wait_result: "condition",
};
const fieldFor = (path: string) => FIELD_OF[path.split(".")[0]];

const UNITS = [
  { value: "minutes", label: "minutes" },
  { value: "hours", label: "hours" },
  { value: "days", label: "days" },
];

const CONDITIONS = [
  { value: "opened", label: "Opened an email of this automation" },
  { value: "clicked", label: "Clicked a link in an email of this automation" },
  { value: "event_received", label: "The event awaited by the last “wait for event” came" },
  { value: "filter", label: "Matches a filter (JSON)" },
];

type StepDialogProps = {
  step: FlowStep | null;
  isNew: boolean;
  automationId: string;
  onClose: () => void;
  onSave: (step: FlowStep) => void;
};

/** Edits one step; its branches (a condition's) are kept as they are. */
export function StepDialog({ step, isNew, automationId, onClose, onSave }: StepDialogProps) {
  return step ? <StepForm key={step.id} step={step} isNew={isNew} automationId={automationId} onClose={onClose} onSave={onSave} /> : null;
}

function StepForm({ step, isNew, automationId, onClose, onSave }: Omit<StepDialogProps, "step"> & { step: FlowStep }) {
  const templates = useAllTemplates();
  const segments = useSegments();
  const form = useForm<Values>({
    defaultValues: toValues(step),
    resolver: bodyResolver<Values, typeof automationStep>(automationStep, (values) => toStep(values, step, automationId), fieldFor),
  });
  const { errors } = form.formState;
  const condition = useWatch({ control: form.control, name: "condition" });
  const templateId = useWatch({ control: form.control, name: "template_id" });
  const kind = kindOf(step.type);

  const submit = form.handleSubmit((values) => {
    const input = toStep(values, step, automationId);
    const saved = (step.type === "condition" ? { ...input, yes: step.yes, no: step.no } : input) as FlowStep;
    onSave(saved);
  });

  const duration = (label: string, hint: string) => (
    <div className="grid grid-cols-[1fr_140px] gap-3">
      <FormField label={label} error={errors.amount?.message} hint={hint} required>
        <Input type="number" min={1} step="any" {...form.register("amount", { valueAsNumber: true })} />
      </FormField>
      <FormField label="Unit">
        <NativeSelect options={UNITS} {...form.register("unit")} />
      </FormField>
    </div>
  );

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? `Add: ${kind.label.toLowerCase()}` : `Edit: ${kind.label.toLowerCase()}`}
      description={kind.hint}
      size={step.type === "send_email" ? "lg" : "md"}
      form={form}
      formId="automation-step"
      onSubmit={submit}
      submitLabel={isNew ? "Add step" : "Apply"}
    >
      {step.type === "send_email" && (
        <>
          <FormField label="Subject" error={errors.subject?.message} hint="Placeholders such as {{first_name}} are filled for each contact." required>
            <Input autoFocus placeholder="Welcome, {{first_name}}" {...form.register("subject")} />
          </FormField>
          <FormField label="Template" error={errors.template_id?.message} hint="Or write the email below.">
            <NativeSelect
              options={[{ value: "", label: "No template: write it here" }, ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))]}
              {...form.register("template_id")}
            />
          </FormField>
          {!templateId && (
            <FormField label="HTML" error={errors.html_content?.message} required>
              <Textarea rows={8} className="font-mono text-[13px]" placeholder="<p>Hi {{first_name}}, …</p>" {...form.register("html_content")} />
            </FormField>
          )}
          <FormField label="From address" error={errors.from_email?.message} hint="At a verified domain; empty: the template's or the automation's sender.">
            <Input type="email" placeholder="hello@yourcompany.com" {...form.register("from_email")} />
          </FormField>
        </>
      )}
      {step.type === "wait" && duration("Wait for", "The contact moves on after this long.")}
      {step.type === "wait_for_event" && (
        <>
          <FormField label="Event" error={errors.event?.message} hint="A custom event your application sends, or a built-in one such as email.opened." required>
            <Input autoFocus placeholder="purchased" {...form.register("event")} />
          </FormField>
          {duration("At most", "If the event does not come by then, the contact moves on anyway.")}
        </>
      )}
      {step.type === "condition" && (
        <>
          <FormField label="Yes when the contact…" error={errors.condition?.message}>
            <NativeSelect options={CONDITIONS} {...form.register("condition")} />
          </FormField>
          {condition === "filter" && (
            <FormField
              label="Filter"
              error={errors.filter_json?.message}
              hint='The contacts list’s filter language, e.g. {"field": "metadata.plan", "op": "eq", "value": "pro"}.'
            >
              <Textarea rows={6} className="font-mono text-[13px]" {...form.register("filter_json")} />
            </FormField>
          )}
        </>
      )}
      {step.type === "update_contact" && (
        <>
          <FormField
            label="Set"
            error={errors.set_lines?.message}
            hint="One per line: first_name = Ann, metadata.plan = pro. An empty value removes a property."
          >
            <Textarea rows={4} className="font-mono text-[13px]" placeholder="metadata.plan = pro" {...form.register("set_lines")} />
          </FormField>
          <FormField label="Add tags" error={errors.add_tags?.message}>
            <Controlled
              control={form.control}
              name="add_tags"
              render={({ field, aria }) => <TagInput {...aria} value={field.value} onChange={field.onChange} />}
            />
          </FormField>
          <FormField label="Remove tags" error={errors.remove_tags?.message}>
            <Controlled
              control={form.control}
              name="remove_tags"
              render={({ field, aria }) => <TagInput {...aria} value={field.value} onChange={field.onChange} />}
            />
          </FormField>
        </>
      )}
      {(step.type === "add_to_segment" || step.type === "remove_from_segment") && (
        <FormField label="Segment" error={errors.segment_id?.message} required>
          <NativeSelect
            options={[{ value: "", label: "Choose a segment" }, ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            {...form.register("segment_id")}
          />
        </FormField>
      )}
    </FormDialog>
  );
}
