import { Prisma } from "@/lib/generated/prisma/client";
import { engineDb } from "./engine-db";

/** Most emails released a round: a tenant that scheduled a million for one minute is released over several rounds. */
const RELEASE_BATCH = 1000;
const PRUNE_BATCH = 500;

/**
 * Scheduled emails of POST /v1/emails whose time has come become `queued`, due at their scheduled
 * time: from there the sender claims them like any other, fairly across organizations. So do an
 * automation's emails that waited for their window's opening or an out-of-office return (an unplaced
 * one is then placed in its window by windows.ts). Broadcast
 * emails are not touched (windows.ts releases those waiting for a time, while their broadcast sends).
 * Answers how many it released. `now` is the caller's clock (the tests control it), and
 * `organizationId` keeps a test to its own organization (tests share one database).
 */
export async function releaseScheduledEmails(options: { now?: Date; organizationId?: string } = {}): Promise<number> {
  const only = options.organizationId ? Prisma.sql`AND organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  return engineDb().$executeRaw`
    UPDATE emails SET status = 'queued', next_attempt_at = LEAST(scheduled_at, now()), updated_at = now()
    WHERE id IN (
      SELECT id FROM emails
      WHERE status = 'scheduled' AND broadcast_id IS NULL AND scheduled_at <= ${options.now ?? new Date()} ${only}
      ORDER BY scheduled_at LIMIT ${RELEASE_BATCH} FOR UPDATE SKIP LOCKED)
    AND status = 'scheduled' AND broadcast_id IS NULL`;
}

/**
 * Attachments are kept only while their email may still be sent: once it is sent, bounced, failed
 * or cancelled its parts go (the record keeps their names and sizes). An hour's grace covers a
 * retry in flight.
 */
export async function pruneSentAttachments(): Promise<number> {
  return engineDb().$executeRaw`
    DELETE FROM email_attachments a USING (
      SELECT DISTINCT p.email_id FROM email_attachments p JOIN emails e ON e.id = p.email_id AND e.organization_id = p.organization_id
      WHERE e.status NOT IN ('queued', 'scheduled', 'sending') AND e.updated_at < now() - interval '1 hour'
      LIMIT ${PRUNE_BATCH}) done
    WHERE a.email_id = done.email_id`;
}
