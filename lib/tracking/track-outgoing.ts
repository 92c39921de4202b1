import type Mail from "nodemailer/lib/mailer";
import { db } from "@/lib/db";
import { addTracking } from "./add-tracking";

type OutgoingEmail = { email: { id: string; organization_id: string }; message: Mail.Options; rendered: { html: string | null } };

/**
 * Adds the open pixel and click redirects to the HTML of the emails about to go out, for the
 * organizations that track. Both the message and the rendered HTML written back on the email
 * record change, so the record shows exactly what was sent.
 */
export async function trackOutgoing(outgoing: OutgoingEmail[]): Promise<void> {
  const organizationIds = [...new Set(outgoing.filter((item) => item.rendered.html).map((item) => item.email.organization_id))];
  if (organizationIds.length === 0) return;
  const tracking = await db.organization.findMany({ where: { id: { in: organizationIds }, tracking_enabled: true }, select: { id: true } });
  const tracked = new Set(tracking.map((organization) => organization.id));
  for (const item of outgoing) {
    if (!item.rendered.html || !tracked.has(item.email.organization_id)) continue;
    item.rendered.html = addTracking(item.rendered.html, item.email.id).html;
    item.message.html = item.rendered.html;
  }
}
