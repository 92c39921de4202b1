import type { EventConsumer } from "@/lib/events/consumer";
import { reevaluateContacts, watchers } from "./dynamic-segments";
import { startEventRuns, wakeWaitingRuns } from "./event-triggers";
import { exitOnLeavingEvents } from "./exits";

/**
 * The automations' consumer of recorded events (lib/events/consumers.ts). It runs in the
 * dispatcher's transaction, the one that ends the batch's announcements, so what it writes commits
 * exactly once per event, or not at all when the worker dies first (then the batch comes again):
 * - runs whose contact unsubscribed or was suppressed leave (exits.ts);
 * - `wait_for_event`: the contact's runs waiting for the event are due now (event-triggers.ts);
 * - `event` triggers start runs (event-triggers.ts);
 * - `segment_entered` on a dynamic segment: the contacts the events are about are judged again
 *   against the segment's filter, their data or events having changed (dynamic-segments.ts).
 * Set-based: a few statements per batch, one more per automation on a dynamic segment of an
 * organization in the batch.
 */
export const automationsConsumer: EventConsumer = {
  name: "automations",
  consume: async (tx, batch) => {
    const withContact = batch.events.filter((event) => event.contact_id !== null);
    if (withContact.length === 0) return;
    const keys = { organizationIds: withContact.map((e) => e.organization_id), eventIds: withContact.map((e) => e.id) };
    await exitOnLeavingEvents(tx, keys);
    await wakeWaitingRuns(tx, keys);
    await startEventRuns(tx, keys);
    // Dynamic segments: only organizations with an active automation on one (most have none).
    const watching = await watchers(tx, [...new Set(keys.organizationIds)]);
    if (watching.length === 0) return;
    const now = new Date();
    for (const organizationId of new Set(watching.map((w) => w.organization_id))) {
      const contacts = [...new Set(withContact.filter((e) => e.organization_id === organizationId).map((e) => e.contact_id!))];
      await reevaluateContacts(
        tx,
        organizationId,
        contacts,
        now,
        watching.filter((w) => w.organization_id === organizationId),
      );
    }
  },
};
