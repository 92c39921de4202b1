import { runMigrations } from "graphile-worker";
import { z } from "zod";
import type { DbClient } from "@/lib/db";
import { env } from "@/lib/env";

export const BROADCAST_START_TASK = "broadcast:start";

/** What a `broadcast:start` job carries. */
const broadcastStartPayload = z.object({ broadcastId: z.uuid(), organizationId: z.uuid() });
export type BroadcastStartPayload = z.infer<typeof broadcastStartPayload>;

/**
 * A job's payload as the task needs it. Jobs outlive deployments and anyone with database access can
 * add one: a malformed payload fails the job with the reason (graphile-worker keeps it, failed, for
 * a person to look at) instead of running on undefined ids.
 */
export function parseBroadcastStartPayload(payload: unknown): BroadcastStartPayload {
  const parsed = broadcastStartPayload.safeParse(payload);
  if (!parsed.success) throw new Error(`${BROADCAST_START_TASK}: malformed payload: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const installed = new Map<string, Promise<void>>();

/**
 * graphile-worker keeps its queue in its own schema, which it installs on first use; the API adds
 * jobs inside its own transactions, so the schema must exist before the first one.
 */
export function ensureQueueSchema(connectionString = env.databaseUrl): Promise<void> {
  let done = installed.get(connectionString);
  if (!done) {
    done = runMigrations({ connectionString }).catch((error: unknown) => {
      installed.delete(connectionString);
      throw error;
    });
    installed.set(connectionString, done);
  }
  return done;
}

/**
 * Queues the start of a broadcast at `runAt`, keyed by the broadcast id: sending again replaces
 * the pending job (a new time reschedules it) instead of adding a second one. Runs in the
 * caller's transaction, so the job exists exactly when the status change is committed.
 */
export async function queueBroadcastStart(client: DbClient, payload: BroadcastStartPayload, runAt: Date): Promise<void> {
  await client.$queryRaw`
    SELECT graphile_worker.add_job(
      ${BROADCAST_START_TASK}, ${JSON.stringify(payload)}::json,
      run_at => ${runAt}::timestamptz, job_key => ${payload.broadcastId}, job_key_mode => 'replace', max_attempts => 25
    )::text`;
}

/** Drops the pending start of a broadcast, if any (a job already running finishes and sees the new status). */
export async function dropBroadcastStart(client: DbClient, broadcastId: string): Promise<void> {
  await client.$queryRaw`SELECT graphile_worker.remove_job(${broadcastId})::text`;
}
