import { randomUUID } from "node:crypto";
import { runDueAutomations } from "@/lib/automations/engine";
import type { Clock } from "@/lib/automations/clock";
import { onEvents } from "@/lib/automations/triggers";
import { db } from "@/lib/db";
import type { TestOrg } from "./api";

/** A custom event of a contact, announced to the automations as the event dispatcher does. */
export async function announceEvent(organizationId: string, contactId: string, name: string, properties: Record<string, unknown> = {}) {
  return db.$transaction((tx) =>
    onEvents(tx, [{ id: randomUUID(), organization_id: organizationId, contact_id: contactId, name, occurred_at: new Date(), properties }]),
  );
}

/** Runs the engine until no run of the organization is due at the clock's time; answers the runs taken. */
export async function settle(organizationId: string, clock: Clock): Promise<number> {
  let total = 0;
  for (let round = 0; round < 100; round++) {
    const taken = await runDueAutomations({ organizationId, clock });
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
