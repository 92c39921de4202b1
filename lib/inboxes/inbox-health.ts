import { type DbClient, Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import type { Inbox } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { recordEventsCtes } from "@/lib/events/sql";

/**
 * An inbox's health. Every failed connection to its servers (sending or polling) is counted; one
 * that sends or polls again resets the count. An inbox whose failures keep coming turns `error`:
 * after INBOX_FAILURES_BEFORE_ERROR (5) in a row, or at once when the failure cannot mend itself
 * (`fatal`: the OAuth provider refused to renew the grant, or the server refused a token just
 * renewed). Rotation and the poller skip an inbox in `error` until a person tests it (POST
 * /v1/inboxes/{id}/test), reconnects it or changes its servers; its `inbox.failed` event tells the
 * organization's webhooks when it happens.
 */
export type InboxFailure = { id: string; reason: string; fatal?: boolean };

/** Replies are read over IMAP; its failures say so, and only its successes clear them. */
export const READING_REPLIES_FAILED = "Reading replies failed: ";

type Failed = Pick<Inbox, "id" | "organization_id" | "name" | "from_email" | "last_error" | "failed_at">;

// `inbox.failed` is recorded (lib/events) by the statement that turns the inbox `error`, with its
// webhook data as the payload: the fact and its announcement commit together, whatever `client` is.
const FAILED_EVENTS = recordEventsCtes(
  "failed_events",
  ["organization_id", "name", "source", "occurred_at", "payload"],
  `SELECT organization_id, 'inbox.failed', 'inboxes', failed_at, jsonb_build_object(
     'inbox_id', id, 'name', name, 'from_email', from_email, 'reason', last_error,
     'failed_at', to_char(failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
   FROM failed`,
);

/** Records failures (one per inbox) and answers the inboxes that turned `error` with them, each with its `inbox.failed` event. */
export async function recordInboxFailures(client: DbClient, failures: InboxFailure[]): Promise<Failed[]> {
  if (failures.length === 0) return [];
  const rows = JSON.stringify(failures.map((f) => ({ id: f.id, reason: f.reason.slice(0, 1000), fatal: f.fatal === true })));
  const limit = env.inboxFailuresBeforeError;
  // Exactly one failure turns an inbox `error` (and records its event) however many workers fail on
  // it at once: the SET reads the row's latest version under its lock, and only the statement that
  // made the change stamps failed_at with its own start, which RETURNING recognises.
  const failed = await client.$queryRaw<Failed[]>`
    WITH v AS (SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS v(id uuid, reason text, fatal boolean)),
    updated AS (
      -- The reason an inbox turned to error stays what it shows; later failures only count.
      UPDATE inboxes i SET last_error = CASE WHEN i.status = 'error' THEN i.last_error ELSE v.reason END,
        last_error_at = now(), failure_count = i.failure_count + 1,
        status = CASE WHEN v.fatal OR i.failure_count + 1 >= ${limit} THEN 'error'::"InboxStatus" ELSE i.status END,
        failed_at = CASE WHEN i.status = 'active' AND (v.fatal OR i.failure_count + 1 >= ${limit}) THEN statement_timestamp() ELSE i.failed_at END
      FROM v WHERE i.id = v.id
      RETURNING i.id, i.organization_id, i.name, i.from_email, i.last_error, i.failed_at
    ),
    failed AS (SELECT * FROM updated WHERE failed_at = statement_timestamp()::timestamptz(3)),
    ${Prisma.raw(FAILED_EVENTS)}
    SELECT id, organization_id, name, from_email, last_error, failed_at FROM failed`;
  for (const inbox of failed) {
    log.warn(
      { organization_id: inbox.organization_id, inbox_id: inbox.id, reason: inbox.last_error },
      "inbox failed: rotation skips it until it is tested or reconnected",
    );
  }
  return failed;
}

/** A poll that read the mailbox: a failure recorded by an earlier poll is over (a sending failure is not). */
export async function recordPollSucceeded(client: DbClient, inbox: Pick<Inbox, "id" | "organization_id">): Promise<void> {
  await client.$executeRaw`
    UPDATE inboxes SET failure_count = 0, last_error = NULL, last_error_at = NULL
    WHERE id = ${inbox.id}::uuid AND organization_id = ${inbox.organization_id}::uuid AND status = 'active'
      AND starts_with(last_error, ${READING_REPLIES_FAILED})`;
}

/** The inbox's servers answered a test (or a reconnect, or new settings): it is healthy again. */
export const healthy = {
  status: "active",
  failure_count: 0,
  failed_at: null,
  last_error: null,
  last_error_at: null,
} as const;
