import type { Inbox, Template } from "@/lib/generated/prisma/client";
import { UNPLACED } from "@/lib/sending/windows";
import { end, moveTo, type RunState } from "../run-state";
import { recordRunMoments } from "../timeline";
import { historyAt, type StepContext, type StepExecutor } from "./context";

type Sender = { from_email: string; from_name: string | null; reply_to: string | null; inbox_id: string | null };
type InboxSender = Pick<Inbox, "id" | "from_email" | "from_name" | "name" | "reply_to">;

/**
 * Sales mode (or any automation with inboxes): each run keeps one inbox of `inbox_ids` for all its
 * emails. A run without one (or whose inbox was deleted) takes the next in rotation — the n-th run
 * of the automation to take one gets inbox_ids[n mod k], as a broadcast's n-th recipient does —
 * counted on the automation's row, once per group.
 */
async function inboxesFor(ctx: StepContext, runs: RunState[]): Promise<Map<string, InboxSender>> {
  const { tx, automation } = ctx;
  const inboxes = await tx.inbox.findMany({
    where: { organization_id: automation.organization_id, id: { in: automation.inbox_ids } },
    select: { id: true, from_email: true, from_name: true, name: true, reply_to: true },
  });
  const byId = new Map(inboxes.map((inbox) => [inbox.id, inbox]));
  const order = automation.inbox_ids.filter((id) => byId.has(id));
  const needing = runs.filter((run) => !run.inbox_id || !byId.has(run.inbox_id));
  if (needing.length > 0 && order.length > 0) {
    const [{ first }] = await tx.$queryRaw<{ first: number }[]>`
      UPDATE automations SET inbox_rotation = inbox_rotation + ${needing.length}::int
      WHERE id = ${automation.id}::uuid RETURNING inbox_rotation - ${needing.length}::int AS first`;
    needing.forEach((run, i) => (run.inbox_id = order[(first + i) % order.length]));
  }
  return byId;
}

function senderOf(ctx: StepContext, template: Template | null, run: RunState, inboxes: Map<string, InboxSender> | null): Sender | null {
  if (inboxes) {
    const inbox = run.inbox_id ? inboxes.get(run.inbox_id) : undefined;
    if (!inbox) return null;
    return { from_email: inbox.from_email, from_name: inbox.from_name ?? inbox.name, reply_to: inbox.reply_to, inbox_id: inbox.id };
  }
  const step = ctx.step.type === "send_email" ? ctx.step : null;
  const from_email = step?.from_email ?? template?.from_email ?? ctx.automation.from_email;
  if (!from_email) return null;
  return {
    from_email,
    from_name: step?.from_name ?? template?.from_name ?? ctx.automation.from_name ?? null,
    reply_to: template?.reply_to ?? null,
    inbox_id: null,
  };
}

/**
 * `send_email`: an email row per run, queued for the sending engine, which renders it for the
 * contact (placeholders, tracking, unsubscribe headers, DKIM) as it does a broadcast's
 * (lib/sending/prepare-batch.ts). The row holds the step's content as written; its (run, step)
 * key makes it exist once. In sales mode a run's later emails reply in its thread: `Re:` subject,
 * In-Reply-To and References of the run's previous email, the same inbox.
 *
 * One statement for the group: the history rows first (a run that had already taken the step is
 * left out there), then the threads and emails of the runs it admitted.
 */
export const sendEmail: StepExecutor = async (ctx, runs) => {
  const { tx, automation, step, now } = ctx;
  if (step.type !== "send_email") return;
  const template = step.template_id ? await tx.template.findFirst({ where: { id: step.template_id, organization_id: automation.organization_id } }) : null;
  if (step.template_id && !template) {
    for (const run of runs) end(run, "failed", "The step's template no longer exists", now);
    return;
  }
  const html = step.html_content ?? template?.html_content ?? null;
  const text = step.text_content ?? template?.text_content ?? null;
  const inboxes = automation.inbox_ids.length > 0 ? await inboxesFor(ctx, runs) : null;
  const sendable: { run: RunState; sender: Sender }[] = [];
  for (const run of runs) {
    const sender = senderOf(ctx, template, run, inboxes);
    if (sender) sendable.push({ run, sender });
    else end(run, "failed", inboxes ? "None of the automation's inboxes exists any more" : "The step has no sender (from_email)", now);
  }
  if (sendable.length === 0) return;

  const sales = automation.sequence_mode === "sales";
  const windowed = automation.sending_window !== null;
  const at = historyAt(ctx);
  const rows = await tx.$queryRaw<{ run_id: string; email_id: string; subject: string }[]>`
    WITH input AS (
      SELECT * FROM unnest(
        ${sendable.map((s) => s.run.id)}::uuid[], ${sendable.map((s) => s.run.contact_id)}::uuid[],
        ${sendable.map((s) => (sales ? s.run.last_email_id : null))}::uuid[], ${sendable.map((s) => s.sender.inbox_id)}::uuid[],
        ${sendable.map((s) => s.sender.from_email)}::text[], ${sendable.map((s) => s.sender.from_name)}::text[],
        ${sendable.map((s) => s.sender.reply_to)}::text[]
      ) AS x(run_id, contact_id, parent_id, inbox_id, from_email, from_name, reply_to)
    ),
    planned AS (
      SELECT x.*, c.email AS to_email, uuid_v7() AS email_id, uuid_v7() AS fresh_thread_id,
        -- A sales run's recipient who answered with an out-of-office is away: its follow-ups wait (lib/sequences/reply-exits.ts).
        CASE WHEN ${sales}::boolean AND p.id IS NOT NULL AND c.away_until > ${now}::timestamptz THEN c.away_until END AS away_until,
        p.thread_id AS parent_thread_id, p.message_id AS parent_message_id, p."references" AS parent_references,
        CASE WHEN p.id IS NULL THEN ${step.subject}::text WHEN p.subject ~* '^re:' THEN p.subject ELSE 'Re: ' || p.subject END AS subject
      FROM input x
      JOIN contacts c ON c.id = x.contact_id AND c.organization_id = ${automation.organization_id}::uuid
      LEFT JOIN emails p ON p.id = x.parent_id AND p.organization_id = ${automation.organization_id}::uuid
    ),
    history AS (
      INSERT INTO automation_run_steps (run_id, step_id, organization_id, automation_id, outcome, email_id, entered_at, completed_at)
      SELECT run_id, ${at.stepId}::uuid, ${at.organizationId}::uuid, ${at.automationId}::uuid, 'queued', email_id, ${now}::timestamptz, ${now}::timestamptz
      FROM planned
      ON CONFLICT (run_id, step_id) DO NOTHING
      RETURNING run_id
    ),
    chosen AS (
      SELECT p.*, COALESCE(p.parent_thread_id, p.fresh_thread_id) AS thread_id FROM planned p JOIN history h ON h.run_id = p.run_id
    ),
    new_threads AS (
      -- The thread names its automation: the unified inbox filters replies by it (GET /v1/threads?automation_id=).
      INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id, automation_id)
      SELECT thread_id, ${automation.organization_id}::uuid, subject, contact_id, inbox_id, ${automation.id}::uuid
      FROM chosen WHERE thread_id = fresh_thread_id
    ),
    inserted AS (
      INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, reply_to, subject, html_content, text_content,
        template_id, contact_id, inbox_id, thread_id, parent_email_id, in_reply_to, "references", status,
        scheduled_at, next_attempt_at, window_ends_at, automation_id, automation_run_id, automation_step_id, paced)
      SELECT email_id, ${automation.organization_id}::uuid, '<' || email_id || '@' || split_part(from_email, '@', 2) || '>',
        from_email, from_name, to_email, reply_to, subject, ${html}::text, ${text}::text,
        ${template?.id ?? null}::uuid, contact_id, inbox_id, thread_id, parent_id, parent_message_id,
        CASE WHEN parent_message_id IS NULL THEN '{}'::text[] ELSE parent_references || parent_message_id END,
        CASE WHEN away_until IS NOT NULL THEN 'scheduled' ELSE 'queued' END::"EmailStatus", away_until, away_until,
        -- Under a sending window (or back from a hold) lib/sending/windows.ts places it in the contact's next opening.
        CASE WHEN away_until IS NOT NULL OR ${windowed}::boolean THEN ${UNPLACED} END,
        -- Through an inbox it goes at the inbox's own pace (its speed, auto), as a broadcast's does.
        ${automation.id}::uuid, run_id, ${step.id}::uuid, true
      FROM chosen
      ON CONFLICT (automation_run_id, automation_step_id) WHERE automation_run_id IS NOT NULL DO NOTHING
      RETURNING id, automation_run_id, subject
    )
    SELECT automation_run_id AS run_id, id AS email_id, subject FROM inserted`;
  const sent = new Map(rows.map((row) => [row.run_id, row.email_id]));
  await recordRunMoments(
    tx,
    rows.map((row) => ({ runId: row.run_id, name: "automation.send_email", properties: { outcome: "queued", subject: row.subject } })),
  );
  for (const { run } of sendable) {
    const emailId = sent.get(run.id);
    if (emailId) run.last_email_id = emailId;
    moveTo(run, ctx.next, now);
  }
};
