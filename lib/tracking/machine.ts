import { isbot } from "isbot";
import type { Visitor } from "./tracked-email";

/**
 * Why an open or click was made by a program rather than a person. Decided once, when it is
 * recorded, and kept on the event (`events.machine`; the reason in the email's `opens` / `clicked_links`): reports count
 * these apart and leave them out of every rate.
 */
export type MachineReason = "apple_privacy_proxy" | "google_image_proxy" | "yahoo_image_proxy" | "no_user_agent" | "bot" | "link_scanner";

// Named first so that a report can say which proxy it was; isbot then covers the long tail of
// scanners, prefetchers and crawlers (and any user agent that is not a browser's or a mail client's).
const KNOWN_PROXIES: [RegExp, MachineReason][] = [
  // Apple Mail Privacy Protection loads every image through Apple's relays, as a bare "Mozilla/5.0".
  [/^Mozilla\/5\.0$/, "apple_privacy_proxy"],
  [/GoogleImageProxy/i, "google_image_proxy"],
  [/YahooMailProxy/i, "yahoo_image_proxy"],
];

/** The reason a request from this visitor is a machine's, or null for a person's. */
export function machineReason(visitor: Visitor): MachineReason | null {
  const userAgent = visitor.userAgent?.trim() ?? "";
  if (!userAgent) return "no_user_agent";
  for (const [pattern, reason] of KNOWN_PROXIES) if (pattern.test(userAgent)) return reason;
  return isbot(userAgent) ? "bot" : null;
}

/**
 * Link scanners (Safe Links, gateway sandboxes) follow every link of a message within seconds of
 * its delivery. A person reading it does not click every link that fast; a single link proves
 * nothing, so the rule needs at least two.
 */
export const SCANNER_WINDOW_MS = 10_000;
export const SCANNER_MIN_LINKS = 2;
