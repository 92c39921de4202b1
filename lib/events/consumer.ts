import type { Prisma } from "@/lib/db";
import type { ClaimedEvent } from "./types";

/** The events of one dispatch, for a consumer. */
export type EventBatch = {
  events: ClaimedEvent[];
  /**
   * The batch's keys as two parallel arrays, for set-based SQL over the batch:
   * `FROM unnest(${batch.organizationIds}::uuid[], ${batch.eventIds}::uuid[]) AS b(organization_id, event_id)
   *  JOIN events e ON e.organization_id = b.organization_id AND e.id = b.event_id`.
   */
  organizationIds: string[];
  eventIds: string[];
};

/**
 * Something that acts on recorded events: webhooks today; automation triggers and `wait_for_event`,
 * dynamic-segment re-evaluation next. `consume` runs inside the dispatcher's transaction, the one
 * that also ends the batch's announcements: whatever it writes there commits exactly once per event,
 * or not at all when the worker dies first (then the batch is dispatched again, to every consumer).
 *
 * Rules for a consumer:
 * - Set-based: one or a few statements for the whole batch (up to a thousand events), never a
 *   query per event, and only database writes — slow or outside work (an HTTP POST, an email)
 *   goes into rows of its own queue that its own loop works off (as webhook_deliveries do).
 * - Pick its events itself (by name, source, …); most batches hold many it ignores.
 * - Put `organization_id` in every statement, and throw on failure: the batch is rolled back and
 *   tried again, organization by organization, so one tenant's bad event holds back only its own.
 */
export type EventConsumer = {
  name: string;
  consume: (tx: Prisma.TransactionClient, batch: EventBatch) => Promise<void>;
};
