import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import type { SequenceStep } from "@/lib/generated/prisma/client";
import { hasStepContent, STEP_CONTENT_MESSAGE, type CreateStepInput, type UpdateStepInput } from "@/lib/schemas/steps";
import { contentColumns } from "@/lib/email-doc/content-columns";
import type { EmailDocument } from "@/lib/email-doc/document";
import type { Utm } from "@/lib/schemas/tracking";
import { assertEditable, lockBroadcast } from "./broadcasts";
import { assertOwned } from "./owned-records";

const serializeStep = (step: SequenceStep) => ({
  id: step.id,
  broadcast_id: step.broadcast_id,
  position: step.position,
  delay_minutes: step.delay_minutes,
  delay_business_days: step.delay_business_days,
  subject: step.subject,
  html_content: step.html_content,
  text_content: step.text_content,
  content_json: step.content_json as EmailDocument | null,
  template_id: step.template_id,
  track_opens: step.track_opens,
  track_clicks: step.track_clicks,
  utm: step.utm as Utm | null,
  created_at: step.created_at,
  updated_at: step.updated_at,
});

// Positions stay 1..n without gaps. Every change runs under the broadcast's row lock, so two
// reorders of the same sequence cannot interleave.
type Scope = { organization_id: string; broadcast_id: string };

const shift = (tx: Prisma.TransactionClient, scope: Scope, position: Prisma.IntFilter, by: 1 | -1) =>
  tx.sequenceStep.updateMany({ where: { ...scope, position }, data: { position: { increment: by } } });

async function lockedStep(tx: Prisma.TransactionClient, ctx: OrgContext, broadcastId: string, stepId: string) {
  const status = await lockBroadcast(tx, ctx, broadcastId);
  const step = await tx.sequenceStep.findFirst({
    where: { id: stepId, broadcast_id: broadcastId, organization_id: ctx.organizationId },
  });
  if (!step) throw notFound("Sequence step");
  assertEditable(status);
  return step;
}

const utmColumn = (utm: Utm | null | undefined) => (utm === null ? Prisma.DbNull : utm);

const positionOutOfRange = (last: number) => invalidField("position", `must be from 1 to ${last}`);

/** The two delay columns from an input: one kind of delay at a time (a business-day step keeps 0 minutes). */
function delayColumns(input: { delay_minutes?: number; delay_business_days?: number | null }) {
  if (input.delay_business_days != null) return { delay_minutes: 0, delay_business_days: input.delay_business_days };
  if (input.delay_minutes !== undefined) return { delay_minutes: input.delay_minutes, delay_business_days: null };
  return input.delay_business_days === null ? { delay_business_days: null } : {};
}

export async function listSteps(ctx: OrgContext, broadcastId: string) {
  const broadcast = await db.broadcast.findFirst({
    where: { id: broadcastId, organization_id: ctx.organizationId },
    select: { id: true },
  });
  if (!broadcast) throw notFound("Broadcast");
  const steps = await db.sequenceStep.findMany({
    where: { organization_id: ctx.organizationId, broadcast_id: broadcastId },
    orderBy: { position: "asc" },
  });
  return { object: "list" as const, has_more: false, data: steps.map(serializeStep) };
}

export function createStep(ctx: OrgContext, broadcastId: string, input: CreateStepInput) {
  return db.$transaction(async (tx) => {
    assertEditable(await lockBroadcast(tx, ctx, broadcastId));
    if (input.template_id) await assertOwned(tx, ctx, "template", [{ id: input.template_id, path: "template_id" }]);
    const scope = { organization_id: ctx.organizationId, broadcast_id: broadcastId };
    const count = await tx.sequenceStep.count({ where: scope });
    const { position = count + 1, content_json, html_content, text_content, delay_minutes, delay_business_days, utm, ...fields } = input;
    if (position > count + 1) throw positionOutOfRange(count + 1);
    const content = await contentColumns(ctx, { content_json, html_content, text_content });
    await shift(tx, scope, { gte: position }, 1);
    const delay = { delay_minutes: 0, ...delayColumns({ delay_minutes, delay_business_days }) };
    const step = await tx.sequenceStep.create({ data: { ...fields, ...content, ...delay, ...scope, position, utm: utmColumn(utm) } });
    return serializeStep(step);
  });
}

export function updateStep(ctx: OrgContext, broadcastId: string, stepId: string, input: UpdateStepInput) {
  return db.$transaction(async (tx) => {
    const step = await lockedStep(tx, ctx, broadcastId, stepId);
    if (input.template_id) await assertOwned(tx, ctx, "template", [{ id: input.template_id, path: "template_id" }]);
    if (!hasStepContent({ ...step, ...input })) throw invalidField("html_content", STEP_CONTENT_MESSAGE);
    const { position, content_json, html_content, text_content, delay_minutes, delay_business_days, utm, ...fields } = input;
    const content = await contentColumns(ctx, { content_json, html_content, text_content });
    const scope = { organization_id: ctx.organizationId, broadcast_id: broadcastId };
    if (position !== undefined && position !== step.position) {
      const count = await tx.sequenceStep.count({ where: scope });
      if (position > count) throw positionOutOfRange(count);
      if (position < step.position) await shift(tx, scope, { gte: position, lt: step.position }, 1);
      else await shift(tx, scope, { gt: step.position, lte: position }, -1);
    }
    const updated = await tx.sequenceStep.update({
      where: { id: step.id, organization_id: ctx.organizationId },
      data: { ...fields, ...content, ...delayColumns({ delay_minutes, delay_business_days }), position, utm: utmColumn(utm) },
    });
    return serializeStep(updated);
  });
}

export function deleteStep(ctx: OrgContext, broadcastId: string, stepId: string) {
  return db.$transaction(async (tx) => {
    const step = await lockedStep(tx, ctx, broadcastId, stepId);
    await tx.sequenceStep.delete({ where: { id: step.id, organization_id: ctx.organizationId } });
    await shift(tx, { organization_id: ctx.organizationId, broadcast_id: broadcastId }, { gt: step.position }, -1);
    return { success: true };
  });
}
