import { assignStepIds, stepIds, type Step } from "@/lib/automations/tree";
import { db, Prisma } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import type { Automation } from "@/lib/generated/prisma/client";
import type { AutomationRecord, AutomationTrigger, CreateAutomationInput, UpdateAutomationInput } from "@/lib/schemas/automations";
import type { Filter } from "@/lib/schemas/filters";
import type { CursorParams } from "@/lib/schemas/pagination";
import type { SendingWindow } from "@/lib/domain/sending-window";
import { activateTrigger, archiveRuns } from "@/lib/automations/lifecycle";
import { automationStats, withStepStats } from "./automation-stats";
import { assertAutomationUsable, type AutomationDraft } from "./automation-rules";
import { cursorPage } from "./cursor-page";

type Stats = AutomationRecord["stats"];

function serialize(row: Automation, stats: Stats, steps?: Step[]): AutomationRecord {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    status: row.status,
    trigger: row.trigger as AutomationTrigger,
    steps: steps ?? (row.steps as unknown as Step[]),
    reentry: row.reentry,
    exit_filter: (row.exit_filter ?? null) as Filter | null,
    sequence_mode: row.sequence_mode,
    inbox_ids: row.inbox_ids,
    sending_window: (row.sending_window ?? null) as SendingWindow | null,
    from_email: row.from_email,
    from_name: row.from_name,
    stats,
    created_by: row.created_by,
    activated_at: row.activated_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The columns copied out of the trigger for the consumers' index probes. */
const triggerColumns = (trigger: AutomationTrigger) => ({
  trigger_event: trigger.type === "event" ? trigger.event : null,
  trigger_segment_id: trigger.type === "segment_entered" ? trigger.segment_id.toLowerCase() : null,
});

const draftOf = (row: Automation): AutomationDraft => ({
  trigger: row.trigger as AutomationTrigger,
  steps: row.steps as unknown as Step[],
  exit_filter: (row.exit_filter ?? null) as Filter | null,
  sequence_mode: row.sequence_mode,
  inbox_ids: row.inbox_ids,
  from_email: row.from_email,
});

const normalizeIds = (ids: string[]) => ids.map((id) => id.toLowerCase());

export async function createAutomation(ctx: OrgContext, input: CreateAutomationInput): Promise<AutomationRecord> {
  const steps = assignStepIds(input.steps);
  const draft: AutomationDraft = {
    trigger: input.trigger,
    steps,
    exit_filter: input.exit_filter ?? null,
    sequence_mode: input.sequence_mode ?? "marketing",
    inbox_ids: normalizeIds(input.inbox_ids ?? []),
    from_email: input.from_email ?? null,
  };
  await assertAutomationUsable(db, ctx, draft);
  const row = await db.automation.create({
    data: {
      organization_id: ctx.organizationId,
      name: input.name,
      trigger: draft.trigger,
      ...triggerColumns(draft.trigger),
      steps: steps as unknown as Prisma.InputJsonValue,
      reentry: input.reentry ?? "never",
      exit_filter: (draft.exit_filter ?? undefined) as Prisma.InputJsonValue | undefined,
      sequence_mode: draft.sequence_mode,
      inbox_ids: draft.inbox_ids,
      sending_window: (input.sending_window ?? undefined) as Prisma.InputJsonValue | undefined,
      from_email: draft.from_email,
      from_name: input.from_name ?? null,
      created_by: ctx.userId,
    },
  });
  return serialize(row, { entered: 0, active: 0, completed: 0, exited: 0 });
}

export async function listAutomations(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.automation.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.automation.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  const stats = await automationStats(
    ctx,
    result.data.map((row) => row.id),
  );
  return { ...result, data: result.data.map((row) => serialize(row, stats.get(row.id)!)) };
}

async function findAutomation(client: Prisma.TransactionClient | typeof db, ctx: OrgContext, id: string, lock = false): Promise<Automation> {
  if (lock) {
    const [locked] = await client.$queryRaw<{ id: string }[]>`
      SELECT id FROM automations WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid FOR UPDATE`;
    if (!locked) throw notFound("Automation");
  }
  const row = await client.automation.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Automation");
  return row;
}

/** `GET /v1/automations/{id}`: the automation, its runs counted, and each step with its own counts. */
export async function getAutomation(ctx: OrgContext, id: string): Promise<AutomationRecord> {
  const row = await findAutomation(db, ctx, id);
  const [stats, steps] = await Promise.all([automationStats(ctx, [row.id]), withStepStats(ctx, row.id, row.steps as unknown as Step[])]);
  return serialize(row, stats.get(row.id)!, steps);
}

const TRANSACTION = { timeout: 60_000, maxWait: 10_000 };

/**
 * `PUT`: a draft or paused automation only (400 AUTOMATION_NOT_EDITABLE otherwise: runs are moving
 * through an active one). Steps sent with the id of one of its current steps keep it, and the runs
 * in them stay there; runs in a step that is gone leave when they next wake (`step_removed`).
 */
export async function updateAutomation(ctx: OrgContext, id: string, input: UpdateAutomationInput): Promise<AutomationRecord> {
  await db.$transaction(async (tx) => {
    const row = await findAutomation(tx, ctx, id, true);
    if (row.status !== "draft" && row.status !== "paused") {
      throw new AppError("AUTOMATION_NOT_EDITABLE", `A ${row.status} automation cannot be edited; pause it first`);
    }
    const current = draftOf(row);
    const steps = input.steps ? assignStepIds(input.steps, stepIds(current.steps)) : current.steps;
    const draft: AutomationDraft = {
      trigger: input.trigger ?? current.trigger,
      steps,
      exit_filter: input.exit_filter === undefined ? current.exit_filter : input.exit_filter,
      sequence_mode: input.sequence_mode ?? current.sequence_mode,
      inbox_ids: input.inbox_ids ? normalizeIds(input.inbox_ids) : current.inbox_ids,
      from_email: input.from_email === undefined ? current.from_email : input.from_email,
    };
    await assertAutomationUsable(tx, ctx, draft);
    await tx.automation.update({
      where: { id: row.id },
      data: {
        name: input.name,
        trigger: draft.trigger,
        ...triggerColumns(draft.trigger),
        steps: steps as unknown as Prisma.InputJsonValue,
        reentry: input.reentry,
        exit_filter: draft.exit_filter === null ? Prisma.DbNull : (draft.exit_filter as Prisma.InputJsonValue),
        sequence_mode: draft.sequence_mode,
        inbox_ids: draft.inbox_ids,
        sending_window:
          input.sending_window === undefined ? undefined : input.sending_window === null ? Prisma.DbNull : (input.sending_window as Prisma.InputJsonValue),
        from_email: draft.from_email,
        from_name: input.from_name,
      },
    });
  }, TRANSACTION);
  return getAutomation(ctx, id);
}

/**
 * `activate`: a draft or paused automation starts (again) taking contacts in and moving its runs.
 * Everything it names is checked again first (a domain or an inbox may have lost its proof since).
 */
export async function activateAutomation(ctx: OrgContext, id: string): Promise<AutomationRecord> {
  await db.$transaction(async (tx) => {
    const row = await findAutomation(tx, ctx, id, true);
    if (row.status === "archived") throw new AppError("AUTOMATION_ARCHIVED", "An archived automation cannot be activated; create a new one");
    if (row.status === "active") return;
    await assertAutomationUsable(tx, ctx, draftOf(row));
    await tx.automation.update({ where: { id: row.id }, data: { status: "active", activated_at: new Date() } });
    await activateTrigger(tx, ctx.organizationId, row.id);
  }, TRANSACTION);
  return getAutomation(ctx, id);
}

/** `pause`: no contact enters, and runs stay where they are until the automation is active again. */
export async function pauseAutomation(ctx: OrgContext, id: string): Promise<AutomationRecord> {
  await db.$transaction(async (tx) => {
    const row = await findAutomation(tx, ctx, id, true);
    if (row.status === "archived") throw new AppError("AUTOMATION_ARCHIVED", "An archived automation cannot be paused");
    if (row.status === "draft") throw new AppError("AUTOMATION_NOT_ACTIVE", "A draft automation is not running; there is nothing to pause");
    if (row.status === "active") await tx.automation.update({ where: { id: row.id }, data: { status: "paused" } });
  }, TRANSACTION);
  return getAutomation(ctx, id);
}

/**
 * `DELETE`: archives. Runs in progress end (`exited`, `archived`) and their emails not yet taken by
 * a sender are cancelled; the automation, its runs and their emails stay readable.
 */
export async function archiveAutomation(ctx: OrgContext, id: string): Promise<AutomationRecord> {
  await db.$transaction(async (tx) => {
    const row = await findAutomation(tx, ctx, id, true);
    if (row.status === "archived") return;
    await tx.automation.update({ where: { id: row.id }, data: { status: "archived" } });
    await archiveRuns(tx, ctx.organizationId, row.id);
  }, TRANSACTION);
  return getAutomation(ctx, id);
}
