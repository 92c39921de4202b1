import { z } from "zod";
import { AutomationReentry, AutomationRunStatus, AutomationStatus, SequenceMode } from "@/lib/generated/prisma/enums";
import { dateTime, emailAddress, id, limits, requiredText, tags, text } from "./common";
import { BUILT_IN_EVENTS, EVENT_NAME, RESERVED_EVENT_PREFIXES, filter as automationFilter } from "./filters";
import { sendingWindow } from "./sending-window";

/**
 * Automations (decisions.md, "The living audience"): a trigger, a tree of steps and the rules of
 * entering and leaving. Every list a request can grow is capped: steps in all, branches' depth,
 * inboxes, properties a trigger matches, fields an update sets.
 */

/** Steps in one automation, counted through every branch. */
export const MAX_STEPS = 100;
/** Conditions nest at most this deep (a condition inside a branch of a condition is depth 2). */
const MAX_BRANCH_DEPTH = 5;
/** A year: a longer wait is a typo, and date arithmetic stays far from overflow. */
const MAX_WAIT_MINUTES = 525_600;
const MAX_INBOXES = 100;
const MAX_SET_FIELDS = 50;
const MAX_WHERE_PROPERTIES = 20;

/**
 * What a trigger or a wait_for_event listens for: a custom event, or a built-in one. `automation.*`
 * names are the automations' own record of their steps (the contact's timeline), never a trigger.
 */
const eventName = z
  .string()
  .regex(EVENT_NAME, "must be 1 to 100 letters, digits or _ . : -")
  .refine(
    (name) => !RESERVED_EVENT_PREFIXES.some((prefix) => name.startsWith(prefix)) || (BUILT_IN_EVENTS as readonly string[]).includes(name),
    `must be a custom event or a built-in one (${BUILT_IN_EVENTS.join(", ")})`,
  );

const scalar = z.union([text(limits.metadataValue), z.number().refine(Number.isFinite, "must be a finite number"), z.boolean()]);

const eventWhere = z
  .object({
    broadcast_id: id.optional(),
    automation_id: id.optional(),
    properties: z
      .record(text(limits.metadataKey).min(1), scalar)
      .refine((value) => Object.keys(value).length <= MAX_WHERE_PROPERTIES, `must have at most ${MAX_WHERE_PROPERTIES} keys`)
      .optional()
      .meta({ description: "Each key must equal the event's property of that name." }),
  })
  .meta({ description: "Only events that match: of this broadcast, of this automation, with these property values." });

export const automationTrigger = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("event"), event: eventName, where: eventWhere.optional() }),
    z.object({ type: z.literal("segment_entered"), segment_id: id }),
  ])
  .meta({
    description:
      "`event`: a custom event (`POST /v1/events`) or a built-in one (`contact.created`, `email.opened`, …) of a contact starts a run. " +
      "`segment_entered`: a contact added to the static segment, or newly matching the dynamic segment's filter, after activation starts a run.",
    id: "AutomationTrigger",
  });
export type AutomationTrigger = z.infer<typeof automationTrigger>;

const minutes = z.number().int().min(1).max(MAX_WAIT_MINUTES);

/** `set` keys are filter field names: the contact's names, or `metadata.<key>`. */
const SET_FIELD = /^(first_name|last_name|metadata\.[^\u0000]{1,100})$/;

const stepId = id.optional().meta({
  description: "Server-given. On PUT, a step keeps its id (and the runs in it) when the id of one of the automation's current steps is sent with it.",
});

const waitStep = z.object({ id: stepId, type: z.literal("wait"), minutes });
const waitForEventStep = z.object({ id: stepId, type: z.literal("wait_for_event"), event: eventName, timeout_minutes: minutes });
const sendEmailStep = z.object({
  id: stepId,
  type: z.literal("send_email"),
  subject: requiredText(limits.subject).meta({
    description: "In sales mode, the run's later emails reply in its thread: `Re: ` and the first email's subject.",
  }),
  html_content: text(limits.html).optional(),
  text_content: text(limits.text).optional(),
  template_id: id.optional(),
  from_email: emailAddress
    .optional()
    .meta({ description: "At a verified domain. Defaults to the template's, then the automation's `from_email`. Not in sales mode: the run's inbox sends." }),
  from_name: text(limits.name).optional(),
});
const updateContactStep = z.object({
  id: stepId,
  type: z.literal("update_contact"),
  set: z
    .record(z.string().regex(SET_FIELD, "must be first_name, last_name or metadata.<key>"), scalar.nullable())
    .refine((value) => Object.keys(value).length <= MAX_SET_FIELDS, `must set at most ${MAX_SET_FIELDS} fields`)
    .optional()
    .meta({ description: "Filter field names (`first_name`, `metadata.plan`) and their new values; `null` removes a metadata key." }),
  add_tags: tags.optional(),
  remove_tags: tags.optional(),
});
const segmentStep = z.object({ id: stepId, type: z.enum(["add_to_segment", "remove_from_segment"]), segment_id: id });
const exitStep = z.object({ id: stepId, type: z.literal("exit") });

export type StepInput =
  | z.infer<typeof waitStep>
  | z.infer<typeof waitForEventStep>
  | z.infer<typeof sendEmailStep>
  | z.infer<typeof updateContactStep>
  | z.infer<typeof segmentStep>
  | z.infer<typeof exitStep>
  | ConditionStepInput;

type ConditionStepInput = {
  id?: string;
  type: "condition";
  filter?: z.infer<typeof automationFilter>;
  wait_result?: "event" | "timeout";
  yes: StepInput[];
  no: StepInput[];
};

const conditionStep: z.ZodType<ConditionStepInput> = z
  .object({
    id: stepId,
    type: z.literal("condition"),
    filter: automationFilter.optional().meta({ description: "A filter on the contact (the contacts list's language): yes when the contact matches it now." }),
    wait_result: z
      .enum(["event", "timeout"])
      .optional()
      .meta({ description: "Instead of a filter: yes when the run's last `wait_for_event` ended this way (its event came, or its timeout)." }),
    get yes() {
      return z.array(automationStep).max(MAX_STEPS);
    },
    get no() {
      return z.array(automationStep).max(MAX_STEPS);
    },
  })
  .superRefine((value, ctx) => {
    if ((value.filter === undefined) === (value.wait_result === undefined)) {
      ctx.addIssue({ code: "custom", path: ["filter"], message: "give exactly one of filter and wait_result" });
    }
  });

export const automationStep: z.ZodType<StepInput, StepInput> = z
  .lazy(() => z.discriminatedUnion("type", [waitStep, waitForEventStep, conditionStep as never, sendEmailStep, updateContactStep, segmentStep, exitStep]))
  .meta({ id: "AutomationStepInput" });

/**
 * The depth and size of a step tree as JSON, checked before zod walks it: a body nested thousands
 * deep would otherwise be parsed recursively (and may exhaust the stack) before a cap could refuse it.
 */
function treeProblem(steps: unknown): { path: (string | number)[]; message: string } | null {
  let count = 0;
  const stack: { list: unknown; path: (string | number)[]; depth: number }[] = [{ list: steps, path: [], depth: 1 }];
  while (stack.length > 0) {
    const { list, path, depth } = stack.pop()!;
    if (!Array.isArray(list)) continue;
    for (const [index, node] of list.entries()) {
      count++;
      if (count > MAX_STEPS) return { path: [...path, index], message: `an automation has at most ${MAX_STEPS} steps` };
      if (typeof node !== "object" || node === null) continue;
      const branches = ["yes", "no"].filter((key) => Array.isArray((node as Record<string, unknown>)[key]));
      if (branches.length > 0 && depth >= MAX_BRANCH_DEPTH + 1) {
        return { path: [...path, index], message: `conditions nest at most ${MAX_BRANCH_DEPTH} deep` };
      }
      for (const key of branches) stack.push({ list: (node as Record<string, unknown>)[key], path: [...path, index, key], depth: depth + 1 });
    }
  }
  return null;
}

const automationSteps = z
  .unknown()
  .superRefine((value, ctx) => {
    const problem = treeProblem(value);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message, fatal: true });
  })
  .pipe(z.array(automationStep).max(MAX_STEPS))
  .meta({
    description:
      `The steps, in order; a condition's \`yes\` and \`no\` hold steps of their own. At most ${MAX_STEPS} steps in all, ` +
      `conditions nested at most ${MAX_BRANCH_DEPTH} deep. Types: wait {minutes}, wait_for_event {event, timeout_minutes}, ` +
      "condition {filter | wait_result, yes, no}, send_email {subject, html_content | template_id, text_content?, from_email?}, " +
      "update_contact {set?, add_tags?, remove_tags?}, add_to_segment / remove_from_segment {segment_id}, exit.",
  });

const distinct = (ids: string[]) => new Set(ids.map((value) => value.toLowerCase())).size === ids.length;

const automationFields = z.object({
  name: requiredText(limits.name),
  trigger: automationTrigger,
  steps: automationSteps,
  reentry: z.enum(AutomationReentry).meta({ description: "`never` (default): a contact enters once. `after_exit`: again, once its previous run has ended." }),
  exit_filter: automationFilter.nullable().meta({ description: "A contact that matches it leaves the automation (checked before each step)." }),
  sequence_mode: z.enum(SequenceMode).meta({
    description:
      "`marketing` (default): each email stands alone. `sales`: a run's emails go from one inbox of `inbox_ids` as one thread, and a reply ends the run.",
  }),
  inbox_ids: z.array(id).max(MAX_INBOXES).refine(distinct, "must not name an inbox twice").meta({
    description: "Inboxes the runs' emails go from, one per run in rotation. Required in sales mode; without them emails go through the organization's relay.",
  }),
  sending_window: sendingWindow.nullable().meta({
    description: "When its emails may go out; an email due outside it waits for the next opening (in the contact's zone with `timezone: contact`).",
  }),
  from_email: emailAddress.nullable().meta({ description: "Extension: the sender of send steps that name none (at a verified domain)." }),
  from_name: text(limits.name).nullable(),
});

export const createAutomationInput = automationFields.partial().extend({
  name: automationFields.shape.name,
  trigger: automationFields.shape.trigger,
  steps: automationFields.shape.steps,
});
export type CreateAutomationInput = z.infer<typeof createAutomationInput>;

// Named: the create's body is these fields with name, trigger and steps required (lib/openapi/schema-sharing.ts).
export const updateAutomationInput = automationFields
  .partial()
  .meta({ id: "AutomationFields", description: "An automation's fields: any of them on update; name, trigger and steps required on create." });
export type UpdateAutomationInput = z.infer<typeof updateAutomationInput>;

const stepStats = z
  .object({
    entered: z.number().int().meta({ description: "Runs that reached the step." }),
    completed: z.number().int().meta({ description: "Runs that went past it." }),
    current: z.number().int().meta({ description: "Extension: runs in the step now (waiting in it, or about to take it)." }),
    sent: z.number().int().optional(),
    opened: z.number().int().optional(),
    clicked: z.number().int().optional(),
  })
  .meta({ description: "Send steps also count their emails sent, opened and clicked." });

type Counted = { stats?: z.infer<typeof stepStats> };

/** A step as saved and answered: its input with its id (a condition's branches too), and its counts when the automation is read alone. */
export type AutomationStep = StepInput extends infer S
  ? S extends { type: "condition" }
    ? Omit<S, "id" | "yes" | "no"> & { id: string; yes: AutomationStep[]; no: AutomationStep[] } & Counted
    : Omit<S, "id"> & { id: string } & Counted
  : never;

const stepRecord: z.ZodType<AutomationStep> = z
  .lazy(() =>
    z.looseObject({
      id,
      type: z.string(),
      stats: stepStats.optional(),
      yes: z.array(stepRecord).optional(),
      no: z.array(stepRecord).optional(),
    }),
  )
  .meta({
    id: "AutomationStep",
    description: "A step as saved, with its server-given `id` (a condition's branches too) and, when the automation is read alone, its `stats`.",
  }) as never;

const automationStats = z.object({
  entered: z.number().int().meta({ description: "Runs started." }),
  active: z.number().int().meta({ description: "Runs in progress (active or waiting)." }),
  completed: z.number().int(),
  exited: z.number().int(),
});

export const automation = z
  .object({
    id,
    organization_id: id,
    name: z.string(),
    status: z.enum(AutomationStatus),
    trigger: automationTrigger,
    steps: z.array(stepRecord),
    reentry: z.enum(AutomationReentry),
    exit_filter: automationFilter.nullable(),
    sequence_mode: z.enum(SequenceMode),
    inbox_ids: z.array(id),
    sending_window: sendingWindow.nullable(),
    from_email: z.string().nullable(),
    from_name: z.string().nullable(),
    stats: automationStats,
    created_by: id.nullable(),
    activated_at: dateTime.nullable(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: "Automation" });
export type AutomationRecord = z.infer<typeof automation>;

const automationRunStatus = z.enum(AutomationRunStatus);

export const automationRun = z.object({
  id,
  automation_id: id,
  contact_id: id,
  contact_email: z.string().meta({ description: "Extension: the contact's email address." }),
  status: automationRunStatus,
  current_step_id: id.nullable(),
  next_run_at: dateTime.nullable(),
  exit_reason: z.string().nullable(),
  history: z.array(
    z.object({
      step_id: id,
      at: dateTime.meta({ description: "When the run left the step (or reached it, while it is still there)." }),
      outcome: z
        .string()
        .meta({ description: "sent, skipped, yes, no, waited, event, timeout, updated, added, removed, exited, or waiting while the run is in it." }),
    }),
  ),
  created_at: dateTime,
  ended_at: dateTime.nullable(),
});

export const automationRunsQuery = z.object({ contact_id: id.optional().meta({ description: "Only this contact's runs." }) });
