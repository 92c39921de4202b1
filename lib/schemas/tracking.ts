import { z } from "zod";
import { limits, requiredText } from "./common";

const utmValue = requiredText(limits.name);

export const utm = z.object({ source: utmValue.optional(), medium: utmValue.optional(), campaign: utmValue.optional() }).meta({
  id: "Utm",
  description: "Added to every web link as `utm_source`, `utm_medium`, `utm_campaign`, tracked or not, unless the link has that parameter.",
});
export type Utm = z.infer<typeof utm>;

/**
 * Tracking per broadcast, step and email (defaults true): the pixel and the click redirects are
 * added only while the organization's `tracking_enabled` is on too.
 */
export const trackingFields = { track_opens: z.boolean(), track_clicks: z.boolean(), utm: utm.nullable() };
