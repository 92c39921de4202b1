import { z } from "zod";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound, rateLimited } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import { filterCondition, savedFilterCondition } from "@/lib/audience/membership";
import type { AudienceClient } from "@/lib/audience/scope";
import { keepStatisticsCurrent } from "@/lib/db/statistics";
import type { ContactBulkJob as JobRow } from "@/lib/generated/prisma/client";
import { CONTACT_BULK, type ContactBulkActionInput, type ContactBulkJob } from "@/lib/schemas/contact-bulk-actions";
import type { Filter } from "@/lib/schemas/filters";
import { ensureQueueSchema } from "@/lib/sending/queue";
import { applyBulkAction, type BulkArguments } from "./contact-bulk-apply";
import { segmentIsDynamic } from "./segments";

export const CONTACT_BULK_TASK = "contacts:bulk-action";
// Queued and running jobs one organization may have: each walks the whole selection.
const MAX_OPEN_JOBS = 3;
const BATCH = 1000;
// Batches one run of the job does before it queues the rest behind other jobs: a large selection
// never holds one of the worker's few queue slots (broadcast starts use them too) for long.
const BATCHES_PER_RUN = 20;
const TRANSACTION = { timeout: 60_000, maxWait: 10_000 };

const serializeJob = (job: JobRow): ContactBulkJob => ({
  id: job.id,
  action: job.action as ContactBulkJob["action"],
  status: job.status,
  total: job.total,
  processed: job.processed,
  affected: job.affected,
  error: job.error,
  created_at: job.created_at.toISOString(),
  completed_at: job.completed_at?.toISOString() ?? null,
});

/** The contacts a bulk action is for, as a condition on `c` besides the organization's. */
async function selectionOf(client: AudienceClient, organizationId: string, input: { contact_ids?: string[]; filter?: Filter }, strict: boolean) {
  if (input.contact_ids) return Prisma.sql`c.id = ANY(${input.contact_ids}::uuid[])`;
  return strict ? filterCondition(client, organizationId, input.filter!) : savedFilterCondition(client, organizationId, input.filter!);
}

/** The next batch of the selection after `cursor`, in id order. */
async function nextIds(client: AudienceClient, organizationId: string, selection: Prisma.Sql, cursor: string | null, limit: number) {
  const after = cursor ? Prisma.sql`AND c.id > ${cursor}::uuid` : Prisma.empty;
  const rows = await client.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM contacts c WHERE c.organization_id = ${organizationId}::uuid AND ${selection} ${after} ORDER BY c.id LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

/** The segment an action names must be a static segment of the organization (400 naming it; 409 when dynamic). */
async function checkSegment(ctx: OrgContext, args: BulkArguments) {
  if (!args.segment_id) return;
  const segment = await db.segment.findFirst({ where: { id: args.segment_id, organization_id: ctx.organizationId }, select: { filter: true } });
  if (!segment) throw invalidField("segment_id", "no such segment in this organization");
  if (segment.filter !== null) throw segmentIsDynamic();
}

const argumentsOf = (input: ContactBulkActionInput): BulkArguments => ({
  action: input.action,
  ...((input.action === "add_to_segment" || input.action === "remove_from_segment") && { segment_id: input.segment_id }),
  ...((input.action === "add_tags" || input.action === "remove_tags") && { tags: [...new Set(input.tags)] }),
});

/**
 * POST /v1/contacts/bulk-actions: up to a thousand contacts are changed now, in one transaction; a
 * filter matching more becomes a job the worker carries out in batches (runContactBulkJob).
 */
export async function startContactBulkAction(ctx: OrgContext, input: ContactBulkActionInput) {
  const args = argumentsOf(input);
  await checkSegment(ctx, args);
  const selection = await selectionOf(db, ctx.organizationId, input, true);
  const ids = await nextIds(db, ctx.organizationId, selection, null, CONTACT_BULK.inline + 1);
  if (input.contact_ids) {
    const found = new Set(ids);
    const missing = input.contact_ids.findIndex((id) => !found.has(id.toLowerCase()));
    if (missing >= 0) throw invalidField(`contact_ids.${missing}`, "no such contact in this organization");
  }
  if (ids.length <= CONTACT_BULK.inline) {
    const affected = await db.$transaction((tx) => applyBulkAction(tx, ctx.organizationId, args, ids), TRANSACTION);
    if (args.action === "add_to_segment") await keepStatisticsCurrent(["segment_contacts"], affected);
    return { affected, job: null };
  }
  return { affected: 0, job: await createJob(ctx, args, input.filter!, selection) };
}

async function createJob(ctx: OrgContext, args: BulkArguments, filter: Filter, selection: Prisma.Sql): Promise<ContactBulkJob> {
  await ensureQueueSchema();
  const job = await db.$transaction(async (tx) => {
    // One organization's requests are counted one at a time: two at once cannot both pass the cap.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('contact-bulk:' || ${ctx.organizationId}, 0))`;
    const open = await tx.contactBulkJob.count({ where: { organization_id: ctx.organizationId, status: { in: ["queued", "running"] } } });
    if (open >= MAX_OPEN_JOBS) throw rateLimited(`At most ${MAX_OPEN_JOBS} bulk actions run at once; try again when one has finished`, 30);
    const [{ total }] = await tx.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total FROM contacts c WHERE c.organization_id = ${ctx.organizationId}::uuid AND ${selection}`;
    const params = { filter, ...(args.segment_id && { segment_id: args.segment_id }), ...(args.tags && { tags: args.tags }) } as Prisma.InputJsonObject;
    const row = await tx.contactBulkJob.create({
      data: { organization_id: ctx.organizationId, action: args.action, params, total, created_by: ctx.userId },
    });
    await queueJob(tx, row);
    return row;
  }, TRANSACTION);
  return serializeJob(job);
}

/** Queues (another run of) the job; one organization's jobs run one after another (their own named queue). */
async function queueJob(client: Prisma.TransactionClient | typeof db, job: Pick<JobRow, "id" | "organization_id">) {
  await client.$queryRaw`
    SELECT graphile_worker.add_job(${CONTACT_BULK_TASK}, ${JSON.stringify({ jobId: job.id })}::json,
      queue_name => ${`contacts-bulk:${job.organization_id}`}, max_attempts => 10)::text`;
}

const jobPayload = z.object({ jobId: z.uuid() });

/** A job's payload as the task needs it: a malformed one fails that job with the reason (as broadcast:start's does). */
export function parseContactBulkPayload(payload: unknown): string {
  const parsed = jobPayload.safeParse(payload);
  if (!parsed.success) throw new Error(`${CONTACT_BULK_TASK}: malformed payload: ${z.prettifyError(parsed.error)}`);
  return parsed.data.jobId;
}

export async function getContactBulkJob(ctx: OrgContext, id: string): Promise<ContactBulkJob> {
  const job = await db.contactBulkJob.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!job) throw notFound("Bulk action");
  return serializeJob(job);
}

type JobParams = { filter: Filter; segment_id?: string; tags?: string[] };

/**
 * One batch of the job, under its row's lock (so two runs of one job never interleave): the next
 * contacts after its cursor, changed, and its progress written in the same transaction, so a run
 * that dies resumes exactly where the last committed batch ended. Answers whether more remain.
 */
async function runBatch(jobId: string): Promise<"more" | "done"> {
  return db.$transaction(async (tx) => {
    const [job] = await tx.$queryRaw<JobRow[]>`SELECT * FROM contact_bulk_jobs WHERE id = ${jobId}::uuid FOR UPDATE`;
    if (!job || job.status === "completed" || job.status === "failed") return "done";
    const params = job.params as JobParams;
    const args = { action: job.action, segment_id: params.segment_id, tags: params.tags } as BulkArguments;
    const selection = await selectionOf(tx, job.organization_id, params, false);
    const ids = await nextIds(tx, job.organization_id, selection, job.cursor, BATCH);
    const affected = await applyBulkAction(tx, job.organization_id, args, ids);
    const finished = ids.length < BATCH;
    await tx.contactBulkJob.update({
      where: { id: job.id },
      data: {
        status: finished ? "completed" : "running",
        processed: { increment: ids.length },
        affected: { increment: affected },
        cursor: ids.at(-1) ?? job.cursor,
        completed_at: finished ? new Date() : null,
      },
    });
    return finished ? "done" : "more";
  }, TRANSACTION);
}

/**
 * The `contacts:bulk-action` task: a few batches, then the rest is queued again behind whatever
 * else waits. A refusal (the segment deleted meanwhile) ends the job as `failed` with the reason;
 * any other error is the queue's to retry, from the last committed batch.
 */
export async function runContactBulkJob(jobId: string, { batches = BATCHES_PER_RUN }: { batches?: number } = {}): Promise<"more" | "done"> {
  try {
    for (let i = 0; i < batches; i++) {
      if ((await runBatch(jobId)) === "done") return "done";
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await db.contactBulkJob.updateMany({ where: { id: jobId }, data: { status: "failed", error: error.message, completed_at: new Date() } });
    return "done";
  }
  const job = await db.contactBulkJob.findUniqueOrThrow({ where: { id: jobId }, select: { id: true, organization_id: true } });
  await queueJob(db, job);
  return "more";
}
