import { db } from "@/lib/db";
import { addTracking } from "./add-tracking";

type OutgoingEmail = { email: { id: string; organization_id: string }; rendered: { html: string | null } };

/**
 * Adds the open pixel and click redirects to the rendered HTML of the emails about to go out, for
 * the organizations that track; the message is built from it afterwards, so the email record
 * shows exactly what was sent.
 */
export async function trackOutgoing(outgoing: OutgoingEmail[]): Promise<void> {
  const organizationIds = [...new Set(outgoing.filter((item) => item.rendered.html).map((item) => item.email.organization_id))];
  if (organizationIds.length === 0) return;
  const tracking = await db.organization.findMany({ where: { id: { in: organizationIds }, tracking_enabled: true }, select: { id: true } });
  const tracked = new Set(tracking.map((organization) => organization.id));
  for (const item of outgoing) {
    if (!item.rendered.html || !tracked.has(item.email.organization_id)) continue;
    item.rendered.html = addTracking(item.rendered.html, item.email.id).html;
  }
}
