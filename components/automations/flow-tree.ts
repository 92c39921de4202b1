import type { AutomationStep, StepInput } from "@/lib/schemas/automations";

/** A step of the builder's tree: as the server answers it, or new (a fresh id the server replaces on save). */
export type FlowStep = AutomationStep;
export type StepType = FlowStep["type"];

/** Where a list of steps is: the automation's own, or a branch of a condition. */
export type ListKey = { conditionId: string; branch: "yes" | "no" } | null;

const fresh = () => crypto.randomUUID();

/** A new step of a type, with the values a marketer starts from. */
export function newStep(type: StepType): FlowStep {
  const id = fresh();
  switch (type) {
    case "wait":
      return { id, type, minutes: 1440 };
    case "wait_for_event":
      return { id, type, event: "", timeout_minutes: 4320 };
    case "condition":
      return { id, type, filter: undefined, wait_result: undefined, yes: [], no: [] } as FlowStep;
    case "send_email":
      return { id, type, subject: "", html_content: "" };
    case "update_contact":
      return { id, type, set: {}, add_tags: [], remove_tags: [] };
    case "add_to_segment":
    case "remove_from_segment":
      return { id, type, segment_id: "" };
    case "exit":
      return { id, type };
  }
}

function mapLists(steps: FlowStep[], list: ListKey, change: (list: FlowStep[]) => FlowStep[]): FlowStep[] {
  if (list === null) return change(steps);
  return steps.map((step) => {
    if (step.type !== "condition") return step;
    if (step.id === list.conditionId) return { ...step, [list.branch]: change(step[list.branch]) };
    return { ...step, yes: mapLists(step.yes, list, change), no: mapLists(step.no, list, change) };
  });
}

export const insertStep = (steps: FlowStep[], list: ListKey, index: number, step: FlowStep) =>
  mapLists(steps, list, (items) => [...items.slice(0, index), step, ...items.slice(index)]);

export function replaceStep(steps: FlowStep[], step: FlowStep): FlowStep[] {
  return steps.map((item) => {
    if (item.id === step.id) return step;
    if (item.type !== "condition") return item;
    return { ...item, yes: replaceStep(item.yes, step), no: replaceStep(item.no, step) };
  });
}

export function removeStep(steps: FlowStep[], id: string): FlowStep[] {
  return steps
    .filter((item) => item.id !== id)
    .map((item) => (item.type === "condition" ? { ...item, yes: removeStep(item.yes, id), no: removeStep(item.no, id) } : item));
}

/** The tree as the API takes it: counts dropped, empty optional fields left out. */
export function toInput(steps: FlowStep[]): StepInput[] {
  return steps.map((step) => {
    const { stats: _stats, ...rest } = step;
    void _stats;
    const clean = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== "")) as StepInput;
    if (step.type === "condition") return { ...clean, yes: toInput(step.yes), no: toInput(step.no) } as StepInput;
    return clean;
  });
}

/** The step an error path of a saved tree names (`steps.2.yes.0.subject` → that step's id, and `subject`). */
export function stepAtPath(steps: FlowStep[], path: string): { id: string; field: string } | null {
  const parts = path.split(".");
  if (parts[0] !== "steps") return null;
  let list = steps;
  let i = 1;
  for (;;) {
    const step = list[Number(parts[i])];
    if (!step) return null;
    const next = parts[i + 1];
    if (step.type === "condition" && (next === "yes" || next === "no") && parts[i + 2] !== undefined) {
      list = step[next];
      i += 2;
      continue;
    }
    return { id: step.id, field: parts.slice(i + 1).join(".") };
  }
}

/** Every step, depth first. */
export function allSteps(steps: FlowStep[]): FlowStep[] {
  return steps.flatMap((step) => (step.type === "condition" ? [step, ...allSteps(step.yes), ...allSteps(step.no)] : [step]));
}

/** Minutes in the words a marketer uses: "1 day", "3 hours", "90 minutes". */
export function duration(minutes: number): string {
  const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;
  if (minutes % 10080 === 0) return plural(minutes / 10080, "week");
  if (minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}
