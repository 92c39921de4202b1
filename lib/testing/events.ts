import { dispatchEvents } from "@/lib/events/dispatch";
import { db } from "@/lib/db";

/**
 * Runs the dispatcher over one organization's announced events until none is left, as the worker's
 * `events:dispatch` loop does within a fraction of a second: what webhooks (and other consumers)
 * make of the recorded events exists afterwards.
 */
export async function dispatchEventsOf(organizationId: string): Promise<number> {
  let total = 0;
  for (let n = await dispatchEvents({ organizationIds: [organizationId] }); n > 0; n = await dispatchEvents({ organizationIds: [organizationId] })) total += n;
  return total;
}

/** The events recorded about an email, oldest first. */
export const emailEventsOf = (emailId: string) => db.event.findMany({ where: { email_id: emailId }, orderBy: [{ occurred_at: "asc" }, { id: "asc" }] });
