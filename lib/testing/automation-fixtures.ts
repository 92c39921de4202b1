import { runDueAutomations } from "@/lib/automations/engine";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events/record";
import type { TestOrg } from "./api";
import { dispatchEventsOf } from "./events";
import { manualClock } from "./manual-clock";

export type EngineClock = ReturnType<typeof manualClock>;

/** A clock for the automation engine that the test moves (lib/testing/manual-clock.ts), starting now. */
export const engineClock = (): EngineClock => manualClock(new Date(Date.now() + 1_000));

/**
 * A custom event of a contact, recorded as POST /v1/events records it and dispatched through the
 * outbox to its consumers (the automations' among them), as the worker's events:dispatch loop does.
 */
export async function announceEvent(organizationId: string, contactId: string, name: string, properties: Record<string, unknown> = {}) {
  await recordEvent(db, { organizationId, contactId, name, source: "api", properties });
  await dispatchEventsOf(organizationId);
}

/**
 * Runs the engine until no run of the organization is due at the clock's time; answers the runs
 * taken. Runs that triggers start are due at the database's time, which went on while the test's
 * clock stood: a clock left behind real time is first moved up to it (never back).
 */
export async function settle(organizationId: string, clock: EngineClock): Promise<number> {
  if (clock().getTime() <= Date.now()) clock.set(new Date(Date.now() + 5));
  let total = 0;
  for (let round = 0; round < 100; round++) {
    const taken = await runDueAutomations({ organizationId, clock });
    // What the steps recorded (automation.* events, contact changes) goes through the consumers too.
    await dispatchEventsOf(organizationId);
    if (taken === 0) return total;
    total += taken;
  }
  throw new Error("settle: runs still due after 100 rounds");
}

/** Creates an automation through the API and activates it; answers its record. */
export async function activeAutomation(org: TestOrg, body: Record<string, unknown>) {
  const created = await org.owner.api.post("/v1/automations", body);
  if (created.status !== 201) throw new Error(`create automation: ${created.status} ${JSON.stringify(created.body)}`);
  const activated = await org.owner.api.post(`/v1/automations/${created.body.id}/activate`);
  if (activated.status !== 200) throw new Error(`activate automation: ${activated.status} ${JSON.stringify(activated.body)}`);
  return activated.body;
}

/** The runs of an automation through the API, every page. */
export async function runsOf(org: TestOrg, automationId: string, contactId?: string) {
  const query = contactId ? `?contact_id=${contactId}&limit=100` : "?limit=100";
  const answer = await org.owner.api.get(`/v1/automations/${automationId}/runs${query}`);
  if (answer.status !== 200) throw new Error(`runs: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data as {
    id: string;
    contact_id: string;
    status: string;
    current_step_id: string | null;
    exit_reason: string | null;
    history: { step_id: string; outcome: string }[];
  }[];
}
