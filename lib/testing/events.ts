import { dispatchEvents } from "@/lib/events/dispatch";

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
