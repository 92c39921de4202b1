import { randomUUID } from "node:crypto";
import type { AutomationStep, StepInput } from "@/lib/schemas/automations";

/** A step of a saved tree: its input with the id the server gave it. */
export type Step = AutomationStep;

type Place = { step: Step; path: string; next: string | null };

/**
 * A saved step tree, indexed for the engine: each step by id with the step that follows it — the
 * next one in its list, or (at the end of a condition's branch) whatever follows the condition,
 * or null at the very end — and its path in the request body, for errors that name it.
 */
export type CompiledTree = {
  first: string | null;
  steps: Map<string, Place>;
};

/** Where a condition's branch starts: its first step, or what follows the condition when the branch is empty. */
export function branchStart(tree: CompiledTree, conditionId: string, branch: "yes" | "no"): string | null {
  const place = tree.steps.get(conditionId)!;
  const list = place.step.type === "condition" ? place.step[branch] : [];
  return list.length > 0 ? list[0].id : place.next;
}

export function compileTree(steps: Step[]): CompiledTree {
  const indexed = new Map<string, Place>();
  const walk = (list: Step[], path: string, after: string | null) => {
    list.forEach((step, index) => {
      const next = index + 1 < list.length ? list[index + 1].id : after;
      const here = `${path}.${index}`;
      indexed.set(step.id, { step, path: here, next });
      if (step.type === "condition") {
        walk(step.yes, `${here}.yes`, next);
        walk(step.no, `${here}.no`, next);
      }
    });
  };
  walk(steps, "steps", null);
  return { first: steps[0]?.id ?? null, steps: indexed };
}

/** Every step of a tree, depth first, with its path. */
export function eachStep(steps: Step[], visit: (step: Step, path: string) => void, path = "steps") {
  steps.forEach((step, index) => {
    visit(step, `${path}.${index}`);
    if (step.type === "condition") {
      eachStep(step.yes, visit, `${path}.${index}.yes`);
      eachStep(step.no, visit, `${path}.${index}.no`);
    }
  });
}

/**
 * Gives every step an id: a step sent with the id of one of the automation's current steps keeps
 * it (so the runs in it stay there after an edit), any other gets a new one. An id sent twice is
 * kept only the first time: two steps never share one.
 */
export function assignStepIds(input: StepInput[], known: ReadonlySet<string> = new Set()): Step[] {
  const used = new Set<string>();
  const give = (list: StepInput[]): Step[] =>
    list.map((step) => {
      const wanted = step.id?.toLowerCase();
      const id = wanted && known.has(wanted) && !used.has(wanted) ? wanted : randomUUID();
      used.add(id);
      if (step.type === "condition") {
        const { yes, no, ...rest } = step;
        return { ...rest, id, yes: give(yes), no: give(no) } as Step;
      }
      return { ...step, id } as Step;
    });
  return give(input);
}

/** The ids of a saved tree's steps. */
export function stepIds(steps: Step[]): Set<string> {
  const ids = new Set<string>();
  eachStep(steps, (step) => ids.add(step.id));
  return ids;
}
