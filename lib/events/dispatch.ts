import { db } from "@/lib/db";
import { errorField, log } from "@/lib/log";
import type { EventConsumer } from "./consumer";
import { eventConsumers } from "./consumers";
import { claimAnnouncements, deleteAnnouncements, waitingOrganizations } from "./outbox";

export type DispatchOptions = {
  /** Most events one round takes, shared out over the organizations waiting. */
  batchSize?: number;
  /** Most organizations one round serves; the next round goes on after the last one served. */
  organizations?: number;
  /** Only these organizations' events (tests share one database). */
  organizationIds?: string[];
  consumers?: EventConsumer[];
};

// Where the next round starts in the organizations' order (round-robin across rounds).
let after: string | null = null;

const TRANSACTION = { timeout: 60_000, maxWait: 10_000 };

/** Claims, consumes and ends the announcements of these organizations in one transaction; answers how many. */
async function dispatchFor(organizationIds: string[], share: number, consumers: EventConsumer[]): Promise<number> {
  return db.$transaction(async (tx) => {
    const { keys, events } = await claimAnnouncements(tx, organizationIds, share);
    if (keys.length === 0) return 0;
    const batch = { events, organizationIds: events.map((e) => e.organization_id), eventIds: events.map((e) => e.id) };
    if (events.length > 0) for (const consumer of consumers) await consumer.consume(tx, batch);
    await deleteAnnouncements(tx, keys);
    return keys.length;
  }, TRANSACTION);
}

/**
 * One round of the dispatcher: the waiting announcements of up to `organizations` organizations,
 * a fair share of `batchSize` each, through every consumer, in one transaction. A batch that fails
 * is tried again one organization at a time, so an event that breaks a consumer holds back only its
 * own organization. Answers how many announcements it ended (0: nothing waiting).
 */
export async function dispatchEvents(options: DispatchOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 1000;
  const consumers = options.consumers ?? eventConsumers;
  const organizationIds = await waitingOrganizations(after, options.organizations ?? 50, options.organizationIds);
  if (organizationIds.length === 0) return 0;
  if (!options.organizationIds) after = organizationIds[organizationIds.length - 1];
  const share = Math.max(10, Math.ceil(batchSize / organizationIds.length));
  try {
    return await dispatchFor(organizationIds, share, consumers);
  } catch (error) {
    if (organizationIds.length === 1) throw error;
    log.warn({ err: errorField(error) }, "events: a dispatch failed; trying its organizations one at a time");
  }
  let done = 0;
  let failure: unknown = null;
  for (const organizationId of organizationIds) {
    try {
      done += await dispatchFor([organizationId], share, consumers);
    } catch (error) {
      failure ??= error;
      log.error({ err: errorField(error), organizationId }, "events: the dispatch of an organization's events failed; it is tried again next round");
    }
  }
  if (done === 0 && failure) throw failure;
  return done;
}
