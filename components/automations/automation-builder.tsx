"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Archive, Pause, Play, Save, Settings2, Undo2, Workflow } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { BackLink } from "@/components/ui/back-link";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useAutomation, type Automation } from "@/lib/client/resources/automations";
import { useSegments } from "@/lib/client/resources/segments";
import { insertStep, newStep, removeStep, replaceStep, type FlowStep, type ListKey } from "./flow-tree";
import { FlowView } from "./flow-view";
import { RunsPanel } from "./runs-panel";
import { settingsBody } from "./settings-body";
import { kindOf } from "./step-words";
import { useAutomationDraft } from "./use-automation-draft";

// The dialogs (their forms, react-hook-form and the schemas' zod) load on first use, as /contacts' do.
const StepDialog = dynamic(() => import("./step-dialog").then((m) => m.StepDialog), { ssr: false });
const SettingsDialog = dynamic(() => import("./settings-dialog").then((m) => m.SettingsDialog), { ssr: false });

function BuilderSkeleton() {
  return (
    <div role="status" aria-label="Loading the automation">
      <Skeleton className="mb-2 h-4 w-28" />
      <Skeleton className="mb-8 h-8 w-72" />
      <div className="flex flex-col items-center gap-6">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-20 w-full max-w-sm rounded-xl" />
        ))}
      </div>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white px-4 py-3">
      <p className="text-xs font-medium text-zinc-500">{label}</p>
      <p className="text-xl font-semibold text-zinc-900 tabular-nums">{value.toLocaleString()}</p>
    </div>
  );
}

type Editing = { step: FlowStep; isNew: boolean; list: ListKey; index: number } | null;

function Builder({ automation }: { automation: Automation }) {
  const queryClient = useQueryClient();
  const segments = useSegments();
  const { draft, dirty, change, save, discard, saving, problems, generalProblem } = useAutomationDraft(automation);
  const [editing, setEditing] = useState<Editing>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [removing, setRemoving] = useState<FlowStep | null>(null);
  const [archiving, setArchiving] = useState(false);
  const [busy, setBusy] = useState(false);
  const editable = automation.status === "draft" || automation.status === "paused";
  const segmentName = (id: string) => segments.data?.find((s) => s.id === id)?.name ?? "a segment";

  async function transition(action: "activate" | "pause") {
    setBusy(true);
    try {
      if (action === "activate" && dirty && !(await save())) {
        toast.error(new Error("Fix the marked steps first"), "Could not save the changes");
        return;
      }
      const route = action === "activate" ? "POST /v1/automations/{id}/activate" : "POST /v1/automations/{id}/pause";
      const updated = await apiCall(route, { params: { id: automation.id } });
      queryClient.setQueryData(queryKeys.automations.detail(automation.id), updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.automations.list() });
      toast.success(
        action === "activate" ? "Automation active" : "Automation paused",
        action === "activate" ? "Contacts who trigger it now enter." : "Contacts stay where they are until you activate it again.",
      );
    } catch (error) {
      toast.error(error, action === "activate" ? "Could not activate the automation" : "Could not pause the automation");
    } finally {
      setBusy(false);
    }
  }

  async function saveChanges() {
    if (await save()) toast.success("Changes saved");
    else toast.error(new Error("Some steps need attention: they are marked in red."), "Could not save");
  }

  async function archive() {
    const archived = await apiCall("DELETE /v1/automations/{id}", { params: { id: automation.id } });
    queryClient.setQueryData(queryKeys.automations.detail(automation.id), archived);
    void queryClient.invalidateQueries({ queryKey: queryKeys.automations.list() });
    toast.success("Automation archived", "Its runs ended; what it sent stays in Emails.");
  }

  const actions = (
    <>
      {editable && dirty && (
        <>
          <Button variant="ghost" onClick={discard} disabled={saving}>
            <Undo2 aria-hidden />
            Discard
          </Button>
          <Button variant="secondary" onClick={() => void saveChanges()} loading={saving}>
            <Save aria-hidden />
            Save changes
          </Button>
        </>
      )}
      {editable && (
        <Button variant="secondary" onClick={() => setSettingsOpen(true)}>
          <Settings2 aria-hidden />
          Settings
        </Button>
      )}
      {editable && (
        <Button onClick={() => void transition("activate")} loading={busy} disabled={draft.steps.length === 0}>
          <Play aria-hidden />
          {dirty ? "Save and activate" : "Activate"}
        </Button>
      )}
      {automation.status === "active" && (
        <Button variant="secondary" onClick={() => void transition("pause")} loading={busy}>
          <Pause aria-hidden />
          Pause
        </Button>
      )}
      {automation.status !== "archived" && (
        <Button variant="ghost" onClick={() => setArchiving(true)}>
          <Archive aria-hidden />
          Archive
        </Button>
      )}
    </>
  );

  return (
    <>
      <PageHeader
        breadcrumb={<BackLink href="/automations">Automations</BackLink>}
        title={
          <span className="inline-flex items-center gap-3">
            {draft.name}
            <StatusBadge status={automation.status} />
          </span>
        }
        description={
          automation.sequence_mode === "sales"
            ? "Sales mode: each run's emails go from one inbox as a thread, and a reply ends it."
            : "Contacts move down the flow on their own."
        }
        actions={actions}
      />
      <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Entered" value={automation.stats.entered} />
        <Stat label="In progress" value={automation.stats.active} />
        <Stat label="Completed" value={automation.stats.completed} />
        <Stat label="Exited early" value={automation.stats.exited} />
      </div>
      <Tabs defaultValue="flow">
        <TabsList>
          <TabsTrigger value="flow">Flow</TabsTrigger>
          <TabsTrigger value="runs">Runs</TabsTrigger>
        </TabsList>
        <TabsContent value="flow">
          {automation.status === "active" && (
            <Callout className="mb-4" title="This automation is running">
              Its counts refresh every few seconds. Pause it to change the flow: contacts wait where they are meanwhile.
            </Callout>
          )}
          {automation.status === "archived" && (
            <Callout className="mb-4" title="Archived">
              It no longer takes contacts in. Its counts and runs stay here to read.
            </Callout>
          )}
          {generalProblem && (
            <Callout tone="danger" className="mb-4" title="Could not save">
              {generalProblem}
            </Callout>
          )}
          <Card className="overflow-x-auto px-4 py-6">
            <FlowView
              trigger={draft.trigger}
              steps={draft.steps}
              actions={{
                editable,
                segmentName,
                problems,
                onAdd: (list, index, type) => {
                  const step = newStep(type);
                  if (type === "exit") change((d) => ({ ...d, steps: insertStep(d.steps, list, index, step) }));
                  else setEditing({ step, isNew: true, list, index });
                },
                onEdit: (step) => setEditing({ step, isNew: false, list: null, index: 0 }),
                onRemove: (step) =>
                  step.type === "condition" && step.yes.length + step.no.length > 0
                    ? setRemoving(step)
                    : change((d) => ({ ...d, steps: removeStep(d.steps, step.id) })),
                onEditTrigger: () => setSettingsOpen(true),
              }}
            />
          </Card>
        </TabsContent>
        <TabsContent value="runs">
          <RunsPanel automation={automation} steps={draft.steps} segmentName={segmentName} />
        </TabsContent>
      </Tabs>
      {editing && (
        <StepDialog
          step={editing?.step ?? null}
          isNew={editing?.isNew ?? false}
          automationId={automation.id}
          onClose={() => setEditing(null)}
          onSave={(step) => {
            const target = editing!;
            change((d) => ({ ...d, steps: target.isNew ? insertStep(d.steps, target.list, target.index, step) : replaceStep(d.steps, step) }));
            setEditing(null);
          }}
        />
      )}
      {settingsOpen && (
        <SettingsDialog
          open={settingsOpen}
          draft={draft}
          onClose={() => setSettingsOpen(false)}
          onApply={(values) => {
            change((d) => ({ ...d, ...settingsBody(values, d), steps: d.steps }) as typeof d);
            setSettingsOpen(false);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove this ${removing ? kindOf(removing.type).label.toLowerCase() : "step"}?`}
        description="Its yes and no branches and every step in them go too."
        confirmLabel="Remove condition"
        onConfirm={() => {
          if (removing) change((d) => ({ ...d, steps: removeStep(d.steps, removing.id) }));
          setRemoving(null);
        }}
      />
      <ConfirmDialog
        open={archiving}
        onOpenChange={setArchiving}
        title={`Archive ${automation.name}?`}
        description="No contact enters it any more. The contacts in it now leave, and their emails not yet sent are cancelled. It cannot be activated again."
        confirmLabel="Archive automation"
        onConfirm={archive}
      />
    </>
  );
}

export function AutomationBuilder({ id }: { id: string }) {
  const automation = useAutomation(id);
  if (automation.isPending) return <BuilderSkeleton />;
  if (automation.isError) {
    return (
      <RecordLoadError
        query={automation}
        list={{ href: "/automations", label: "Automations" }}
        title="Automation"
        icon={Workflow}
        notFoundTitle="Automation not found"
        errorTitle="Could not load the automation"
      />
    );
  }
  return <Builder automation={automation.data} />;
}
