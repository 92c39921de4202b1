"use client";

import { History, Search, X } from "lucide-react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { apiCall, errorMessage } from "@/lib/client/api";
import { useAutomationRuns, type Automation, type AutomationRun } from "@/lib/client/resources/automations";
import { allSteps, type FlowStep } from "./flow-tree";
import { describeStep, kindOf } from "./step-words";

const OUTCOME_WORDS: Record<string, string> = {
  queued: "email queued",
  waiting: "waiting",
  waited: "waited",
  event: "the event came",
  timeout: "timed out",
  yes: "yes",
  no: "no",
  updated: "updated",
  added: "added",
  removed: "removed",
  skipped: "skipped",
  exited: "left here",
};

const EXIT_WORDS: Record<string, string> = {
  unsubscribed: "unsubscribed",
  suppressed: "address suppressed",
  replied: "replied",
  exit_filter: "matched the exit filter",
  exit_step: "reached an exit step",
  archived: "the automation was archived",
  step_removed: "its step was removed",
};

function RunHistory({ run, steps, segmentName }: { run: AutomationRun; steps: Map<string, FlowStep>; segmentName: (id: string) => string }) {
  return (
    <ol className="flex flex-col gap-1.5" aria-label={`Steps of ${run.contact_email}`}>
      {run.history.map((entry) => {
        const step = steps.get(entry.step_id);
        return (
          <li key={entry.step_id} className="flex flex-wrap items-baseline gap-x-2 text-[13px]">
            <span className="font-medium text-zinc-800">{step ? kindOf(step.type).label : "A removed step"}</span>
            {step && <span className="truncate text-zinc-500">{describeStep(step, segmentName)}</span>}
            <span className="text-zinc-700">· {OUTCOME_WORDS[entry.outcome] ?? entry.outcome}</span>
            <span className="text-zinc-400">
              <RelativeTime value={entry.at} />
            </span>
          </li>
        );
      })}
      {run.exit_reason && <li className="text-[13px] text-zinc-600">Left: {EXIT_WORDS[run.exit_reason] ?? run.exit_reason}</li>}
    </ol>
  );
}

/** The runs of the automation, newest first, or the runs of one contact found by email. */
export function RunsPanel({ automation, steps, segmentName }: { automation: Automation; steps: FlowStep[]; segmentName: (id: string) => string }) {
  const [search, setSearch] = useState("");
  const [contact, setContact] = useState<{ id: string; email: string } | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const runs = useAutomationRuns(automation.id, contact?.id ?? null);
  const byId = new Map(allSteps(steps).map((step) => [step.id, step]));
  const rows = runs.data?.data ?? [];

  async function findContact(event: FormEvent) {
    event.preventDefault();
    setLookupError(null);
    if (!search.trim()) return setContact(null);
    try {
      const found = await apiCall("GET /v1/contacts", { query: { search: search.trim(), limit: 1 } });
      const [first] = found.contacts;
      if (!first) setLookupError(`No contact matches “${search.trim()}”.`);
      else setContact({ id: first.id, email: first.email });
    } catch (error) {
      setLookupError(errorMessage(error));
    }
  }

  return (
    <Card>
      <CardHeader
        title={contact ? `Runs of ${contact.email}` : "Runs"}
        description={contact ? "Every time this contact went through the automation." : "The newest runs; find one contact's by email."}
        actions={
          <form onSubmit={findContact} className="flex items-center gap-2" role="search">
            <Input
              className="w-64"
              type="search"
              placeholder="Contact email"
              aria-label="Contact email"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <Button type="submit" variant="secondary" size="sm">
              <Search aria-hidden />
              Find
            </Button>
            {contact && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  setContact(null);
                  setSearch("");
                }}
              >
                <X aria-hidden />
                All runs
              </Button>
            )}
          </form>
        }
      />
      {lookupError && <p className="px-5 pb-3 text-sm text-red-700">{lookupError}</p>}
      <ListState
        query={runs}
        loading={<SkeletonRows rows={4} columns={3} />}
        errorTitle="Could not load the runs"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState icon={History} title={contact ? "This contact has not entered" : "No runs yet"}>
            {automation.status === "active"
              ? "Contacts appear here as soon as they trigger the automation."
              : "Activate the automation: contacts who trigger it from then on appear here."}
          </EmptyState>
        }
      >
        <ul className="divide-y divide-zinc-100">
          {rows.map((run) => (
            <li key={run.id} className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:gap-6">
              <div className="w-64 shrink-0">
                <Link href={`/contacts/${run.contact_id}`} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                  {run.contact_email}
                </Link>
                <div className="mt-1 flex items-center gap-2 text-xs text-zinc-500">
                  <StatusBadge status={run.status} />
                  <span>
                    started <RelativeTime value={run.created_at} />
                  </span>
                </div>
              </div>
              <div className="min-w-0 flex-1">
                <RunHistory run={run} steps={byId} segmentName={segmentName} />
              </div>
            </li>
          ))}
        </ul>
      </ListState>
    </Card>
  );
}
