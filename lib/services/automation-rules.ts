import { filterCondition } from "@/lib/audience/membership";
import { checkPropertyValue } from "@/lib/audience/property-values";
import { propertyTypes } from "@/lib/audience/scope";
import { eachStep, type Step } from "@/lib/automations/tree";
import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import type { AutomationTrigger } from "@/lib/schemas/automations";
import type { Filter } from "@/lib/schemas/filters";
import type { SequenceMode } from "@/lib/generated/prisma/enums";
import type { DbClient } from "@/lib/db";
import { assertOwned, type Reference } from "./owned-records";
import { assertInboxesVerified, assertProvenSender } from "./sender-proof";

/** An automation as it will be saved, whatever the request changed. */
export type AutomationDraft = {
  trigger: AutomationTrigger;
  steps: Step[];
  exit_filter: Filter | null;
  sequence_mode: SequenceMode;
  inbox_ids: string[];
  from_email: string | null;
};

async function assertOwnedRows(client: DbClient, ctx: OrgContext, table: "broadcast" | "automation", refs: Reference[]) {
  if (refs.length === 0) return;
  const ids = [...new Set(refs.map((ref) => ref.id.toLowerCase()))];
  const where = { organization_id: ctx.organizationId, id: { in: ids } };
  const rows =
    table === "broadcast"
      ? await client.broadcast.findMany({ where, select: { id: true } })
      : await client.automation.findMany({ where, select: { id: true } });
  const found = new Set(rows.map((row) => row.id));
  const missing = refs.find((ref) => !found.has(ref.id.toLowerCase()));
  if (missing) throw invalidField(missing.path, `no such ${table} in this organization`);
}

/**
 * Everything an automation refers to must be the caller's and usable: segments, templates,
 * inboxes (verified; sales mode needs at least one), broadcasts and automations named by the
 * trigger, filters (compiled by lib/audience), and each send step's sender — through the run's
 * inbox when the automation has inboxes, else at a verified domain (the relay). 400 naming the path.
 */
export async function assertAutomationUsable(client: DbClient, ctx: OrgContext, draft: AutomationDraft) {
  const segments: Reference[] = [];
  const templates: Reference[] = [];
  const filters: { filter: Filter; path: string }[] = [];
  const sends: { step: Extract<Step, { type: "send_email" }>; path: string }[] = [];
  if (draft.trigger.type === "segment_entered") segments.push({ id: draft.trigger.segment_id, path: "trigger.segment_id" });
  eachStep(draft.steps, (step, path) => {
    if (step.type === "add_to_segment" || step.type === "remove_from_segment") segments.push({ id: step.segment_id, path: `${path}.segment_id` });
    if (step.type === "condition" && step.filter) filters.push({ filter: step.filter, path: `${path}.filter` });
    if (step.type === "send_email") {
      if (step.template_id) templates.push({ id: step.template_id, path: `${path}.template_id` });
      sends.push({ step, path });
    }
  });
  await assertOwned(client, ctx, "segment", segments);
  await assertOwned(client, ctx, "template", templates);
  const inboxRefs = draft.inbox_ids.map((id, i) => ({ id, path: `inbox_ids.${i}` }));
  await assertOwned(client, ctx, "inbox", inboxRefs);
  await assertInboxesVerified(client, ctx, inboxRefs);
  if (draft.sequence_mode === "sales" && draft.inbox_ids.length === 0) {
    throw invalidField("inbox_ids", "sales mode sends each run's emails from one inbox: give at least one");
  }
  if (draft.trigger.type === "event" && draft.trigger.where) {
    const { broadcast_id, automation_id } = draft.trigger.where;
    if (broadcast_id) await assertOwnedRows(client, ctx, "broadcast", [{ id: broadcast_id, path: "trigger.where.broadcast_id" }]);
    if (automation_id) await assertOwnedRows(client, ctx, "automation", [{ id: automation_id, path: "trigger.where.automation_id" }]);
  }
  if (draft.exit_filter) filters.push({ filter: draft.exit_filter, path: "exit_filter" });
  // Compiled strictly by the one filter language: any problem is a 400 naming its place.
  for (const { filter, path } of filters) await filterCondition(client, ctx.organizationId, filter, { path });
  await assertSenders(client, ctx, draft, sends);
  await assertTypedValues(client, ctx, draft.steps);
}

/**
 * An update_contact step writes metadata as the API does: a typed property takes a value of its
 * type (400 naming the key's place, as a contact write would be), a date is stored normalized.
 */
async function assertTypedValues(client: DbClient, ctx: OrgContext, steps: Step[]) {
  const updates: { step: Extract<Step, { type: "update_contact" }>; path: string }[] = [];
  eachStep(steps, (step, path) => {
    if (step.type === "update_contact" && step.set) updates.push({ step, path });
  });
  if (updates.length === 0) return;
  const types = await propertyTypes(client, ctx.organizationId);
  for (const { step, path } of updates) {
    for (const [field, value] of Object.entries(step.set!)) {
      const type = field.startsWith("metadata.") ? types.get(field.slice("metadata.".length)) : undefined;
      if (!type || value === null) continue;
      const checked = checkPropertyValue(type, value);
      if (!checked.ok) throw invalidField(`${path}.set.${field}`, checked.message);
      step.set![field] = checked.value;
    }
  }
}

async function assertSenders(
  client: DbClient,
  ctx: OrgContext,
  draft: AutomationDraft,
  sends: { step: Extract<Step, { type: "send_email" }>; path: string }[],
) {
  const templateIds = sends.flatMap(({ step }) => (step.template_id ? [step.template_id] : []));
  const templates = new Map(
    (await client.template.findMany({ where: { organization_id: ctx.organizationId, id: { in: templateIds } }, select: { id: true, from_email: true } })).map(
      (t) => [t.id, t],
    ),
  );
  for (const { step, path } of sends) {
    if (!step.html_content?.trim() && !step.text_content?.trim() && !step.template_id) {
      throw invalidField(`${path}.html_content`, "html_content, text_content or template_id is required");
    }
    if (step.html_content !== undefined && step.template_id) throw invalidField(`${path}.template_id`, "give html_content or template_id, not both");
    if (draft.inbox_ids.length > 0) {
      if (step.from_email) throw invalidField(`${path}.from_email`, "the automation has inboxes: each run's emails go from its inbox's address");
      continue;
    }
    const from = step.from_email ?? (step.template_id ? templates.get(step.template_id)?.from_email : null) ?? draft.from_email;
    if (!from) throw invalidField(`${path}.from_email`, "is required: neither the step, its template nor the automation names a sender");
    await assertProvenSender(client, ctx, from, step.from_email ? `${path}.from_email` : draft.from_email === from ? "from_email" : `${path}.template_id`, {
      relay: true,
    });
  }
}
