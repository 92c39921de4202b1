"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { Automation } from "@/lib/client/resources/automations";
import type { UpdateAutomationInput } from "@/lib/schemas/automations";
import { stepAtPath, toInput, type FlowStep } from "./flow-tree";

/** What the builder edits: the automation's settings and its tree, with the steps' counts as last read. */
export type AutomationDraft = Pick<
  Automation,
  "name" | "trigger" | "reentry" | "sequence_mode" | "inbox_ids" | "sending_window" | "from_email" | "from_name"
> & {
  steps: FlowStep[];
};

const draftOf = (automation: Automation): AutomationDraft => ({
  name: automation.name,
  trigger: automation.trigger,
  steps: automation.steps as FlowStep[],
  reentry: automation.reentry,
  sequence_mode: automation.sequence_mode,
  inbox_ids: automation.inbox_ids,
  sending_window: automation.sending_window,
  from_email: automation.from_email,
  from_name: automation.from_name,
});

const draftBody = (draft: AutomationDraft): UpdateAutomationInput => ({ ...draft, steps: toInput(draft.steps) });

/**
 * The builder's working copy: null until the first change (the flow shows the automation as the
 * server has it, counts refreshing), then the edited tree until it is saved or discarded. A refusal
 * puts each problem on the step (or the trigger) its path names.
 */
export function useAutomationDraft(automation: Automation) {
  const queryClient = useQueryClient();
  const [edited, setEdited] = useState<AutomationDraft | null>(null);
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [generalProblem, setGeneralProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const draft = edited ?? draftOf(automation);
  const dirty = edited !== null && JSON.stringify(draftBody(edited)) !== JSON.stringify(draftBody(draftOf(automation)));

  const change = (update: (draft: AutomationDraft) => AutomationDraft) => setEdited((current) => update(current ?? draftOf(automation)));

  async function save(): Promise<boolean> {
    if (!edited) return true;
    setSaving(true);
    try {
      const saved = await apiCall("PUT /v1/automations/{id}", { params: { id: automation.id }, body: draftBody(edited) });
      queryClient.setQueryData(queryKeys.automations.detail(automation.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.automations.list() });
      setEdited(null);
      setProblems(new Map());
      setGeneralProblem(null);
      return true;
    } catch (error) {
      const found = new Map<string, string>();
      const general: string[] = [];
      const details = error instanceof ApiError ? error.details : [];
      for (const detail of details) {
        const at = stepAtPath(edited.steps, detail.path);
        if (at) found.set(at.id, at.field ? `${at.field.replaceAll("_", " ")}: ${detail.message}` : detail.message);
        else if (detail.path.startsWith("trigger")) found.set("trigger", detail.message);
        else general.push(detail.path ? `${detail.path.replaceAll("_", " ")}: ${detail.message}` : detail.message);
      }
      setProblems(found);
      setGeneralProblem(general.join(" ") || (details.length ? null : error instanceof Error ? error.message : "Could not save"));
      return false;
    } finally {
      setSaving(false);
    }
  }

  const discard = () => {
    setEdited(null);
    setProblems(new Map());
    setGeneralProblem(null);
  };

  return { draft, dirty, change, save, discard, saving, problems, generalProblem };
}
