import { Clock, DoorOpen, GitBranch, Hourglass, Mail, MinusCircle, PlusCircle, UserCog, type LucideIcon } from "lucide-react";
import type { AutomationTrigger } from "@/lib/schemas/automations";
import { duration, type FlowStep, type StepType } from "./flow-tree";

export const STEP_KINDS: { type: StepType; label: string; hint: string; icon: LucideIcon }[] = [
  { type: "send_email", label: "Send email", hint: "An email to the contact", icon: Mail },
  { type: "wait", label: "Wait", hint: "A number of minutes, hours or days", icon: Clock },
  { type: "wait_for_event", label: "Wait for event", hint: "Until the contact does something, or a timeout", icon: Hourglass },
  { type: "condition", label: "Condition", hint: "Yes / no branches", icon: GitBranch },
  { type: "update_contact", label: "Update contact", hint: "Set properties, add or remove tags", icon: UserCog },
  { type: "add_to_segment", label: "Add to segment", hint: "A static segment", icon: PlusCircle },
  { type: "remove_from_segment", label: "Remove from segment", hint: "A static segment", icon: MinusCircle },
  { type: "exit", label: "Exit", hint: "The contact leaves here", icon: DoorOpen },
];

export const kindOf = (type: StepType) => STEP_KINDS.find((kind) => kind.type === type)!;

/** The condition kinds the builder offers, as the filter or wait result each stands for. */
export type ConditionKind = "opened" | "clicked" | "event_received" | "filter";

export function conditionKind(step: Extract<FlowStep, { type: "condition" }>): ConditionKind {
  if (step.wait_result) return "event_received";
  const filter = step.filter as { event?: string } | undefined;
  if (filter?.event === "email.opened") return "opened";
  if (filter?.event === "email.clicked") return "clicked";
  return "filter";
}

const CONDITION_WORDS: Record<ConditionKind, string> = {
  opened: "Opened an email of this automation?",
  clicked: "Clicked a link in an email of this automation?",
  event_received: "Did the awaited event come?",
  filter: "Matches the filter?",
};

/** One line saying what a step does, as the flow shows it. */
export function describeStep(step: FlowStep, segmentName: (id: string) => string): string {
  switch (step.type) {
    case "send_email":
      return step.subject ? `“${step.subject}”` : "No subject yet";
    case "wait":
      return `Wait ${duration(step.minutes)}`;
    case "wait_for_event":
      return step.event ? `Until “${step.event}”, at most ${duration(step.timeout_minutes)}` : "No event chosen yet";
    case "condition":
      return step.wait_result === "timeout" ? "Did the wait time out?" : CONDITION_WORDS[conditionKind(step)];
    case "update_contact": {
      const parts = [
        ...Object.entries(step.set ?? {}).map(([field, value]) => (value === null ? `clear ${field}` : `${field} = ${String(value)}`)),
        ...(step.add_tags ?? []).map((tag) => `+${tag}`),
        ...(step.remove_tags ?? []).map((tag) => `−${tag}`),
      ];
      return parts.length ? parts.join(", ") : "Nothing to change yet";
    }
    case "add_to_segment":
    case "remove_from_segment":
      return step.segment_id ? segmentName(step.segment_id) : "No segment chosen yet";
    case "exit":
      return "The contact leaves the automation";
  }
}

export function describeTrigger(trigger: AutomationTrigger, segmentName: (id: string) => string): string {
  if (trigger.type === "segment_entered") return `Contact enters ${segmentName(trigger.segment_id)}`;
  return `Event “${trigger.event}”`;
}
