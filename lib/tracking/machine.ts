import { isbot } from "isbot";
import type { Visitor } from "./tracked-email";

/**
 * Why an open or click was made by a program rather than a person. Decided once, when it is
 * recorded, and kept on the event (`events.machine`; the reason in the email's `opens` / `clicked_links`): reports count
 * these apart and leave them out of every rate.
 */
export type MachineReason = "apple_privacy_proxy" | "no_user_agent" | "bot" | "link_scanner";

/** Image proxies that fetch an email's images when the person opens it. */
export type ImageProxy = "google_image_proxy" | "yahoo_image_proxy";

// Gmail and Yahoo load images through their proxies when the person opens the email, not before:
// such a fetch is the person's open (isbot would call them bots). The event keeps which proxy it was.
const OPENING_PROXIES: [RegExp, ImageProxy][] = [
  [/GoogleImageProxy/i, "google_image_proxy"],
  [/YahooMailProxy/i, "yahoo_image_proxy"],
];

/** The image proxy a request came through, when it is one that fetches as the person opens the email. */
export function imageProxyOf(visitor: Visitor): ImageProxy | null {
  const userAgent = visitor.userAgent ?? "";
  return OPENING_PROXIES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}

/** The reason a request from this visitor is a machine's, or null for a person's. */
export function machineReason(visitor: Visitor): MachineReason | null {
  const userAgent = visitor.userAgent?.trim() ?? "";
  if (!userAgent) return "no_user_agent";
  // Apple Mail Privacy Protection loads every image through Apple's relays, as a bare "Mozilla/5.0",
  // whether or not the email is read: kept apart. Named so a report can say which it was.
  if (/^Mozilla\/5\.0$/.test(userAgent)) return "apple_privacy_proxy";
  if (imageProxyOf(visitor)) return null;
  // isbot covers the long tail of scanners, prefetchers and crawlers (any user agent that is not a browser's or a mail client's).
  return isbot(userAgent) ? "bot" : null;
}

/**
 * Link scanners (Safe Links, gateway sandboxes) follow every link of a message within seconds of
 * its delivery. A person reading it does not click every link that fast; a single link proves
 * nothing, so the rule needs at least two.
 */
export const SCANNER_WINDOW_MS = 10_000;
export const SCANNER_MIN_LINKS = 2;
