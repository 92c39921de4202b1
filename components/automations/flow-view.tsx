"use client";

import { CircleStop, Pencil, Plus, Trash2, Zap } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/client/cn";
import type { AutomationTrigger } from "@/lib/schemas/automations";
import type { FlowStep, ListKey, StepType } from "./flow-tree";
import { describeStep, describeTrigger, kindOf, STEP_KINDS } from "./step-words";

export type FlowActions = {
  editable: boolean;
  segmentName: (id: string) => string;
  /** Problems the server found, by step id (and `trigger`). */
  problems: Map<string, string>;
  onAdd: (list: ListKey, index: number, type: StepType) => void;
  onEdit: (step: FlowStep) => void;
  onRemove: (step: FlowStep) => void;
  onEditTrigger: () => void;
};

/** The vertical line between two cards, with the "+" that adds a step there. */
function Gap({ list, index, actions, label }: { list: ListKey; index: number; actions: FlowActions; label: string }) {
  return (
    <div className="flex flex-col items-center">
      <div className="h-4 w-px bg-zinc-300" aria-hidden />
      {actions.editable && (
        <>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <button
                type="button"
                aria-label={label}
                className="flex size-7 items-center justify-center rounded-full border border-zinc-300 bg-white text-zinc-500 shadow-xs transition hover:border-brand-400 hover:text-brand-700 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
              >
                <Plus className="size-4" aria-hidden />
              </button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="center" className="w-64">
              {STEP_KINDS.map((kind) => (
                <DropdownMenuItem key={kind.type} onSelect={() => actions.onAdd(list, index, kind.type)}>
                  <kind.icon aria-hidden />
                  <span className="flex flex-col">
                    <span>{kind.label}</span>
                    <span className="text-xs text-zinc-500">{kind.hint}</span>
                  </span>
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
          <div className="h-4 w-px bg-zinc-300" aria-hidden />
        </>
      )}
    </div>
  );
}

function Count({ value, label, tone = "text-zinc-700" }: { value: number; label: string; tone?: string }) {
  return (
    <span className="whitespace-nowrap">
      <span className={cn("font-semibold tabular-nums", tone)}>{value.toLocaleString()}</span> {label}
    </span>
  );
}

/** What the step's counts say: how many went past it, wait in it or are in it now; a send step's emails. */
function StepCounts({ step }: { step: FlowStep }) {
  const stats = step.stats;
  if (!stats) return <p className="text-xs text-zinc-400">New step: counts appear once it is saved and contacts reach it.</p>;
  const waiting = step.type === "wait" || step.type === "wait_for_event";
  return (
    <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-zinc-500" aria-label="Step counts">
      <Count value={stats.completed} label="passed" />
      <Count value={stats.current} label={waiting ? "waiting" : "here now"} tone={stats.current > 0 ? "text-brand-700" : "text-zinc-700"} />
      {step.type === "send_email" && (
        <>
          <Count value={stats.sent ?? 0} label="sent" />
          <Count value={stats.opened ?? 0} label="opened" />
          <Count value={stats.clicked ?? 0} label="clicked" />
        </>
      )}
    </p>
  );
}

function StepCard({ step, actions }: { step: FlowStep; actions: FlowActions }) {
  const kind = kindOf(step.type);
  const problem = actions.problems.get(step.id);
  return (
    <div
      className={cn("w-full max-w-sm rounded-xl border bg-white px-4 py-3 shadow-xs", problem ? "border-red-300 ring-1 ring-red-200" : "border-zinc-200")}
      data-testid="flow-step"
      aria-label={`${kind.label}: ${describeStep(step, actions.segmentName)}`}
    >
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
          <kind.icon className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{kind.label}</p>
          <p className="truncate text-sm font-medium text-zinc-900">{describeStep(step, actions.segmentName)}</p>
          <div className="mt-1.5">
            <StepCounts step={step} />
          </div>
          {problem && <p className="mt-1.5 text-xs text-red-700">{problem}</p>}
        </div>
        {actions.editable && (
          <div className="-mr-2 flex shrink-0 gap-0.5">
            {step.type !== "exit" && (
              <Button variant="ghost" size="icon" aria-label={`Edit ${kind.label.toLowerCase()} step`} onClick={() => actions.onEdit(step)}>
                <Pencil aria-hidden />
              </Button>
            )}
            <Button variant="ghost" size="icon" aria-label={`Remove ${kind.label.toLowerCase()} step`} onClick={() => actions.onRemove(step)}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

/** A list of steps top to bottom, with a "+" before each and after the last; a condition's branches side by side. */
function StepList({ steps, list, actions }: { steps: FlowStep[]; list: ListKey; actions: FlowActions }) {
  const where = list ? ` in the ${list.branch} branch` : "";
  return (
    <div className="flex w-full flex-col items-center">
      {steps.map((step, index) => (
        <div key={step.id} className="flex w-full flex-col items-center">
          <Gap list={list} index={index} actions={actions} label={`Add a step before step ${index + 1}${where}`} />
          <StepCard step={step} actions={actions} />
          {step.type === "condition" && (
            <div className="mt-0 grid w-full grid-cols-2 gap-4 pt-0">
              {(["yes", "no"] as const).map((branch) => (
                <div key={branch} className="flex flex-col items-center rounded-xl border border-dashed border-zinc-200 bg-zinc-50/60 px-2 pt-3 pb-2">
                  <span
                    className={cn(
                      "rounded-full px-2.5 py-0.5 text-xs font-semibold",
                      branch === "yes" ? "bg-emerald-100 text-emerald-800" : "bg-zinc-200 text-zinc-700",
                    )}
                  >
                    {branch === "yes" ? "Yes" : "No"}
                  </span>
                  <StepList steps={step[branch]} list={{ conditionId: step.id, branch }} actions={actions} />
                </div>
              ))}
            </div>
          )}
        </div>
      ))}
      <Gap list={list} index={steps.length} actions={actions} label={steps.length ? `Add a step at the end${where}` : `Add the first step${where}`} />
      {list === null && (
        <span className="inline-flex items-center gap-1.5 rounded-full bg-zinc-100 px-3 py-1 text-xs font-medium text-zinc-600">
          <CircleStop className="size-3.5" aria-hidden />
          End
        </span>
      )}
    </div>
  );
}

/** The automation as a vertical flow: the trigger on top, the steps below it. */
export function FlowView({ trigger, steps, actions }: { trigger: AutomationTrigger; steps: FlowStep[]; actions: FlowActions }) {
  const problem = actions.problems.get("trigger");
  return (
    <div className="flex flex-col items-center py-2" aria-label="Automation flow">
      <div
        className={cn("w-full max-w-sm rounded-xl border-2 bg-white px-4 py-3 shadow-xs", problem ? "border-red-300" : "border-brand-200")}
        data-testid="flow-trigger"
      >
        <div className="flex items-start gap-3">
          <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white">
            <Zap className="size-4" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">When</p>
            <p className="truncate text-sm font-medium text-zinc-900">{describeTrigger(trigger, actions.segmentName)}</p>
            {problem && <p className="mt-1.5 text-xs text-red-700">{problem}</p>}
          </div>
          {actions.editable && (
            <Button variant="ghost" size="icon" className="-mr-2" aria-label="Edit the trigger" onClick={actions.onEditTrigger}>
              <Pencil aria-hidden />
            </Button>
          )}
        </div>
      </div>
      <StepList steps={steps} list={null} actions={actions} />
    </div>
  );
}
