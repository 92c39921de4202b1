import { z } from "zod";
import { limits, requiredText } from "./common";

const utmValue = requiredText(limits.name);

export const utm = z.object({ source: utmValue.optional(), medium: utmValue.optional(), campaign: utmValue.optional() }).meta({
  id: "Utm",
  description: "Added to every web link as `utm_source`, `utm_medium` and `utm_campaign`, tracked or not; a parameter the link already has is left as it is.",
});
export type Utm = z.infer<typeof utm>;

/**
 * Tracking per broadcast, step and email (defaults true): the pixel and the click redirects are
 * added only while the organization's `tracking_enabled` is on too.
 */
export const trackingFields = { track_opens: z.boolean(), track_clicks: z.boolean(), utm: utm.nullable() };
