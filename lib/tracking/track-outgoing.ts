import type { Email } from "@/lib/generated/prisma/client";
import type { Utm } from "@/lib/schemas/tracking";
import { domainOf } from "@/lib/domain/addresses";
import { addTracking, trackable } from "./add-tracking";
import { organizationTracking } from "./tracking-hosts";
import { textWithUtm } from "./utm";

/** What a broadcast, a step or an email says about tracking. */
type Settings = { track_opens: boolean; track_clicks: boolean; utm: unknown };

/** What the HTML sent carries: the open pixel, click redirects (on at least one link). Reports count opens and clicks out of these. */
export type Tracked = { opens: boolean; clicks: boolean };

type OutgoingEmail = {
  email: Pick<Email, "id" | "organization_id" | "from_email" | "broadcast_id" | "step_id"> & Settings;
  rendered: { html: string | null; text: string };
  /** Written here: what tracking this email carries. */
  tracked: Tracked;
};

/** The broadcasts and steps of the batch, as the engine loaded them. */
export type TrackingSources = { broadcasts: Map<string, Settings>; steps: Map<string, Settings> };

/** A step's own settings, else its broadcast's, else the email's own (POST /v1/emails). */
function settingsOf(email: OutgoingEmail["email"], sources: TrackingSources): Settings {
  return (email.step_id && sources.steps.get(email.step_id)) || (email.broadcast_id && sources.broadcasts.get(email.broadcast_id)) || email;
}

/**
 * Adds UTM parameters to the links of the emails about to go out and, for the organizations that
 * track, the open pixel and click redirects, each as its broadcast, step or email asks; on the
 * organization's tracking host for its sender domain when that host is verified, else on the
 * platform's. The message is built from the result afterwards, so the email record shows exactly
 * what was sent, and notes whether it carries the pixel and click redirects (`tracked`).
 */
export async function trackOutgoing(outgoing: OutgoingEmail[], sources: TrackingSources): Promise<void> {
  if (outgoing.length === 0) return;
  const organizations = await organizationTracking(
    [...new Set(outgoing.map((item) => item.email.organization_id))],
    [...new Set(outgoing.map((item) => domainOf(item.email.from_email)))],
  );
  for (const item of outgoing) {
    const settings = settingsOf(item.email, sources);
    const utm = settings.utm as Utm | null;
    const organization = organizations.get(item.email.organization_id);
    const tracks = organization?.enabled === true;
    const host = tracks ? organization.hosts.get(domainOf(item.email.from_email)) : undefined;
    const baseUrl = host ? `https://${host}` : undefined;
    item.tracked = { opens: false, clicks: false };
    if (item.rendered.html) {
      const options = { baseUrl, utm, opens: tracks && settings.track_opens, clicks: tracks && settings.track_clicks };
      const tracked = addTracking(item.rendered.html, item.email.id, options);
      item.rendered.html = tracked.html;
      // An email without the pixel, or without a redirected link, can show no open or click: reports leave it out of those rates.
      item.tracked = { opens: options.opens, clicks: options.clicks && tracked.links.length > 0 };
    }
    item.rendered.text = textWithUtm(item.rendered.text, utm, (url) => trackable(url, baseUrl));
  }
}
