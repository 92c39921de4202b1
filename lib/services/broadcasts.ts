import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db, type DbClient, Prisma } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import type { Broadcast } from "@/lib/generated/prisma/client";
import type { BroadcastStatus, SendingSpeed, SequenceMode } from "@/lib/generated/prisma/enums";
import type { AbTestSettings, BroadcastVariant, CreateBroadcastInput, UpdateBroadcastInput } from "@/lib/schemas/broadcasts";
import { contentColumns, type ContentColumns } from "@/lib/email-doc/content-columns";
import type { EmailDocument } from "@/lib/email-doc/document";
import type { SendingWindow } from "@/lib/domain/sending-window";
import type { Utm } from "@/lib/schemas/tracking";
import { inboxSenderDefaults } from "./inbox-sender-defaults";
import { assertOwned, type Reference } from "./owned-records";
import { assertInboxesVerified } from "./sender-proof";

const EDITABLE_STATUSES: readonly BroadcastStatus[] = ["draft", "scheduled"];

export const serializeBroadcast = (b: Broadcast) => ({
  id: b.id,
  organization_id: b.organization_id,
  name: b.name,
  subject: b.subject,
  from_email: b.from_email,
  from_name: b.from_name,
  reply_to: b.reply_to,
  preview_text: b.preview_text,
  html_content: b.html_content,
  text_content: b.text_content,
  content_json: b.content_json as EmailDocument | null,
  template_id: b.template_id,
  segment_id: b.segment_id,
  topic_id: b.topic_id,
  inbox_id: b.inbox_id,
  inbox_ids: b.inbox_ids,
  sending_speed: b.sending_speed,
  status: b.status,
  total_recipients: b.total_recipients,
  sent_count: b.sent_count,
  delivered_count: b.delivered_count,
  opened_count: b.opened_count,
  clicked_count: b.clicked_count,
  bounced_count: b.bounced_count,
  soft_bounced_count: b.soft_bounced_count,
  complained_count: b.complained_count,
  replied_count: b.replied_count,
  unsubscribed_count: b.unsubscribed_count,
  failure_reason: b.failure_reason,
  paused_reason: b.paused_reason,
  paused_at: b.paused_at,
  scheduled_at: b.scheduled_at,
  started_at: b.started_at,
  completed_at: b.completed_at,
  tags: b.tags,
  sequence_exit_conditions: b.sequence_exit_conditions,
  sequence_mode: b.sequence_mode,
  sending_window: b.sending_window as SendingWindow | null,
  // Unset means the mode's default: a company-level stop is what a sales sequence wants.
  stop_on_company_reply: b.stop_on_company_reply ?? b.sequence_mode === "sales",
  track_opens: b.track_opens,
  track_clicks: b.track_clicks,
  utm: b.utm as Utm | null,
  variants: b.variants as BroadcastVariant[] | null,
  ab_test: b.ab_test as AbTestSettings | null,
  ab_decide_at: b.ab_decide_at,
  ab_winner_index: b.ab_winner_index,
  resend_of_id: b.resend_of_id,
  resend_audience: b.resend_audience,
  created_by: b.created_by,
  created_at: b.created_at,
  updated_at: b.updated_at,
});

/** Locks the broadcast row for the rest of the transaction, so status checks and edits cannot interleave. */
export async function lockBroadcast(tx: Prisma.TransactionClient, ctx: OrgContext, id: string): Promise<BroadcastStatus> {
  const rows = await tx.$queryRaw<{ status: BroadcastStatus }[]>`
    SELECT status::text AS status FROM broadcasts
    WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid
    FOR UPDATE`;
  if (!rows[0]) throw notFound("Broadcast");
  return rows[0].status;
}

export function assertEditable(status: BroadcastStatus) {
  if (!EDITABLE_STATUSES.includes(status)) {
    throw new AppError("BROADCAST_NOT_EDITABLE", `A ${status} broadcast cannot be changed; only draft and scheduled ones can`);
  }
}

type BroadcastWrite = ContentColumns & {
  name?: string;
  subject?: string;
  from_email?: string;
  from_name?: string;
  reply_to?: string | null;
  preview_text?: string | null;
  template_id?: string | null;
  segment_id?: string | null;
  topic_id?: string | null;
  inbox_id?: string | null;
  inbox_ids?: string[];
  sending_speed?: SendingSpeed | null;
  scheduled_at?: Date | null;
  sequence_exit_conditions?: Prisma.InputJsonObject | typeof Prisma.DbNull;
  sequence_mode?: SequenceMode;
  sending_window?: Prisma.InputJsonObject | typeof Prisma.DbNull;
  stop_on_company_reply?: boolean | null;
  tags?: string[];
  track_opens?: boolean;
  track_clicks?: boolean;
  utm?: Prisma.InputJsonObject | typeof Prisma.DbNull;
  variants?: Prisma.InputJsonArray | typeof Prisma.DbNull;
  ab_test?: Prisma.InputJsonObject | typeof Prisma.DbNull;
};

type AbColumns = Pick<Broadcast, "variants" | "ab_test" | "track_opens" | "track_clicks">;
const NO_AB_TEST: AbColumns = { variants: null, ab_test: null, track_opens: true, track_clicks: true };

/**
 * Variants and the test's settings go together: one without the other (after this change) is a 400
 * naming the missing one. The test's metric must be tracked: a test by opens with the open pixel
 * switched off could only ever pick the first variant, on no evidence.
 */
function assertWholeAbTest(current: AbColumns, input: UpdateBroadcastInput) {
  const after = <K extends keyof AbColumns>(key: K) => (input[key] === undefined ? current[key] : input[key]);
  const [variants, abTest] = [after("variants"), after("ab_test") as AbTestSettings | null];
  if (variants && !abTest) throw invalidField("ab_test", "is required with variants (test_percent, metric, wait_minutes)");
  if (abTest && !variants) throw invalidField("variants", "are required with ab_test: 2 to 4 of them");
  if (abTest?.metric === "unique_opens" && after("track_opens") === false) throw invalidField("ab_test.metric", "needs open tracking: track_opens is off");
  if (abTest?.metric === "unique_clicks" && after("track_clicks") === false) throw invalidField("ab_test.metric", "needs click tracking: track_clicks is off");
}

const touchesAbTest = (input: UpdateBroadcastInput) =>
  input.variants !== undefined || input.ab_test !== undefined || input.track_opens !== undefined || input.track_clicks !== undefined;

const single = (value: string | null | undefined, path: string): Reference[] => (value ? [{ id: value, path }] : []);
const many = (values: string[] | null | undefined, path: string): Reference[] =>
  (values ?? []).map((value, index) => ({ id: value, path: `${path}.${index}` }));

/** Checks every id the input names against the caller's organization and turns the input into columns. */
async function resolveChanges(client: DbClient, ctx: OrgContext, input: UpdateBroadcastInput): Promise<BroadcastWrite> {
  const exits = input.sequence_exit_conditions;
  await assertOwned(client, ctx, "template", single(input.template_id, "template_id"));
  await assertOwned(client, ctx, "topic", single(input.topic_id, "topic_id"));
  await assertOwned(client, ctx, "segment", [
    ...single(input.segment_id, "segment_id"),
    ...many(exits?.exit_if_in_segment_ids, "sequence_exit_conditions.exit_if_in_segment_ids"),
    ...many(exits?.exit_if_not_in_segment_ids, "sequence_exit_conditions.exit_if_not_in_segment_ids"),
  ]);
  await assertOwned(client, ctx, "inbox", many(input.inbox_ids, "inbox_ids"));

  const { scheduled_at, sequence_exit_conditions, sending_window, inbox_ids, content_json, html_content, text_content, utm, variants, ab_test, ...columns } =
    input;
  const data: BroadcastWrite = { ...columns, ...(await contentColumns(ctx, { content_json, html_content, text_content })) };
  if (sending_window !== undefined) data.sending_window = sending_window ?? Prisma.DbNull;
  if (variants !== undefined) data.variants = variants ?? Prisma.DbNull;
  if (ab_test !== undefined) data.ab_test = ab_test ?? Prisma.DbNull;
  if (scheduled_at !== undefined) data.scheduled_at = scheduled_at === null ? null : new Date(scheduled_at);
  if (sequence_exit_conditions !== undefined) data.sequence_exit_conditions = sequence_exit_conditions ?? Prisma.DbNull;
  if (inbox_ids !== undefined) data.inbox_ids = inbox_ids ?? [];
  if (utm !== undefined) data.utm = utm ?? Prisma.DbNull;
  // One sender source at a time: a single inbox and a rotation are never stored together.
  if (input.inbox_id) {
    Object.assign(data, await inboxSenderDefaults(client, ctx, input.inbox_id, "inbox_id", input));
    data.inbox_ids = [];
  }
  if (inbox_ids && inbox_ids.length > 0) data.inbox_id = null;
  // An inbox chosen for sending must be able to send (checked again when the broadcast is sent).
  await assertInboxesVerified(client, ctx, [...single(input.inbox_id, "inbox_id"), ...many(input.inbox_ids, "inbox_ids")]);
  return data;
}

export async function createBroadcast(ctx: OrgContext, input: CreateBroadcastInput) {
  assertWholeAbTest(NO_AB_TEST, input);
  const data = await resolveChanges(db, ctx, input);
  const fromEmail = data.from_email;
  if (!fromEmail) throw invalidField("from_email", "is required unless inbox_id is given");
  const row = await db.broadcast.create({
    data: { ...data, name: input.name, subject: input.subject, from_email: fromEmail, organization_id: ctx.organizationId, created_by: ctx.userId },
  });
  return serializeBroadcast(row);
}

export async function listBroadcasts(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.broadcast.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.broadcast.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serializeBroadcast) };
}

// The record's columns by name rather than *: a prepared statement must keep the shape of its
// result when a migration adds a column.
const RECORD_COLUMNS = Object.keys(serializeBroadcast({} as Broadcast))
  .map((column) => `"${column}"`)
  .join(", ");
const GET_BROADCAST = `SELECT ${RECORD_COLUMNS} FROM broadcasts WHERE id = $1 AND organization_id = $2`;

/**
 * Read far more often than written (dashboards and integrations poll it): one query through plain
 * pg, prepared once per connection so that PostgreSQL does not parse and plan it on every call.
 */
export async function getBroadcast(ctx: OrgContext, id: string) {
  const { rows } = await pool.query<Broadcast>({ name: "get-broadcast", text: GET_BROADCAST, values: [id, ctx.organizationId] });
  if (!rows[0]) throw notFound("Broadcast");
  return serializeBroadcast(rows[0]);
}

export function updateBroadcast(ctx: OrgContext, id: string, input: UpdateBroadcastInput) {
  return db.$transaction(async (tx) => {
    assertEditable(await lockBroadcast(tx, ctx, id));
    if (touchesAbTest(input)) {
      const select = { variants: true, ab_test: true, track_opens: true, track_clicks: true } as const;
      assertWholeAbTest(await tx.broadcast.findFirstOrThrow({ where: { id, organization_id: ctx.organizationId }, select }), input);
    }
    const data = await resolveChanges(tx, ctx, input);
    const row = await tx.broadcast.update({ where: { id, organization_id: ctx.organizationId }, data });
    return serializeBroadcast(row);
  });
}

export function deleteBroadcast(ctx: OrgContext, id: string) {
  return db.$transaction(async (tx) => {
    const status = await lockBroadcast(tx, ctx, id);
    if (status === "sending") throw new AppError("BROADCAST_NOT_EDITABLE", "A broadcast cannot be deleted while it is sending");
    // A paused broadcast's unsent emails (queued, stepped over by the claim while it is paused), or a
    // cancel's still going through them in batches (lib/sending/cancel-emails.ts), end here: they
    // would otherwise outlive the broadcast queued, of no broadcast, and be sent as if on their own.
    await tx.$executeRaw`
      UPDATE emails SET status = 'cancelled', last_error = 'The broadcast was cancelled', updated_at = now()
      WHERE broadcast_id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid AND status IN ('queued', 'scheduled')
        AND (${status === "paused"}::boolean OR EXISTS (SELECT 1 FROM broadcast_cancellations c WHERE c.broadcast_id = ${id}::uuid))`;
    await tx.$executeRaw`DELETE FROM broadcast_cancellations WHERE broadcast_id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid`;
    await tx.broadcast.delete({ where: { id, organization_id: ctx.organizationId } });
    return { success: true };
  });
}
