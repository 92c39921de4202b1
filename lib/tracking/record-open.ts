import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events/record";
import { imageProxyOf, machineReason } from "./machine";
import { verifyOpenToken } from "./token";
import { lockTrackedEmail, MAX_ENGAGEMENT_ENTRIES, visitorFields, type Visitor } from "./tracked-email";

/**
 * Records an open from the pixel of `token`: each one is added to `opens` (with the visitor) and
 * recorded as an `email.opened` event (lib/events; webhooks follow). A person's first open sets `opened_at` and counts on the broadcast;
 * a machine's (privacy proxy, prefetcher, scanner: see ./machine) is kept and flagged, and
 * neither. Answers whether anything was recorded (not for a foreign token, nor when tracking is off).
 */
export async function recordOpen(token: string, visitor: Visitor, at = new Date()): Promise<boolean> {
  const verified = verifyOpenToken(token);
  if (!verified) return false;
  return db.$transaction(async (tx) => {
    const email = await lockTrackedEmail(tx, verified.emailId);
    if (!email || !email.tracking_enabled) return false;
    const machine = machineReason(visitor);
    const first = machine === null && email.opened_at === null;
    const proxy = imageProxyOf(visitor);
    const entry = { at: at.toISOString(), ...visitorFields(visitor), ...(machine ? { machine } : {}), ...(proxy ? { proxy } : {}) };
    const kept = email.opens_count < MAX_ENGAGEMENT_ENTRIES;
    await tx.$executeRaw`
      UPDATE emails
      SET opened_at = CASE WHEN ${first} THEN ${at} ELSE opened_at END,
          opens = CASE WHEN ${kept} THEN opens || ${JSON.stringify([entry])}::jsonb ELSE opens END,
          updated_at = now()
      WHERE id = ${email.id}::uuid`;
    if (first && email.broadcast_id) {
      await tx.$executeRaw`UPDATE broadcasts SET opened_count = opened_count + 1, updated_at = now() WHERE id = ${email.broadcast_id}::uuid`;
    }
    if (kept) {
      await recordEvent(tx, {
        organizationId: email.organization_id,
        name: "email.opened",
        source: "tracking",
        contactId: email.contact_id,
        emailId: email.id,
        broadcastId: email.broadcast_id,
        automationId: email.automation_id,
        machine: machine !== null,
        occurredAt: at,
        properties: { opened_at: at.toISOString(), first_open: first, machine: machine !== null },
      });
    }
    return true;
  });
}
