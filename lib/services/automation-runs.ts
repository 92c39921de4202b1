import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import type { CursorParams } from "@/lib/schemas/pagination";
import { cursorPage } from "./cursor-page";

/**
 * `GET /v1/automations/{id}/runs`: the automation's runs, newest first (cursor-paginated), each with
 * its history in the order it was made; `contact_id` keeps one contact's.
 */
export async function listAutomationRuns(ctx: OrgContext, automationId: string, query: { contact_id?: string }, page: CursorParams) {
  const automation = await db.automation.findFirst({ where: { id: automationId, organization_id: ctx.organizationId }, select: { id: true } });
  if (!automation) throw notFound("Automation");
  const where = { organization_id: ctx.organizationId, automation_id: automation.id, ...(query.contact_id ? { contact_id: query.contact_id } : {}) };
  const result = await cursorPage(
    page,
    (args) =>
      db.automationRun.findMany({
        where: { ...where, ...args.where },
        orderBy: args.orderBy,
        take: args.take,
        include: { contact: { select: { email: true } } },
      }),
    (id) => db.automationRun.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  const history = await db.automationRunStep.findMany({
    where: { organization_id: ctx.organizationId, run_id: { in: result.data.map((run) => run.id) } },
    orderBy: [{ seq: "asc" }],
  });
  return {
    ...result,
    data: result.data.map((run) => ({
      id: run.id,
      automation_id: run.automation_id,
      contact_id: run.contact_id,
      contact_email: run.contact.email,
      status: run.status,
      current_step_id: run.current_step_id,
      next_run_at: run.next_run_at?.toISOString() ?? null,
      exit_reason: run.exit_reason,
      history: history
        .filter((row) => row.run_id === run.id)
        .map((row) => ({ step_id: row.step_id, at: (row.completed_at ?? row.entered_at).toISOString(), outcome: row.outcome ?? "waiting" })),
      created_at: run.created_at.toISOString(),
      ended_at: run.ended_at?.toISOString() ?? null,
    })),
  };
}
