import disposableDomains from "disposable-email-domains-js/dist/dict/disposable_email_blocklist.json";
import rolePrefixes from "role-based-email-addresses";
import type { AddressFlag } from "@/lib/schemas/contacts";

/**
 * What an import flags in an address that is valid but likely to hurt a list:
 * - `disposable`: a throwaway mailbox (mailinator.com, 10minutemail.com, …) that is gone within
 *   hours, so mail to it bounces later; the domain or any parent of it is on the maintained list of
 *   the disposable-email-domains project (about 8 900 domains, the `disposable-email-domains-js` package).
 * - `role`: a mailbox of a function, not a person (info@, sales@, support@, noreply@, …), which
 *   several people or none read and which complains more often; its local part (before any `+tag`)
 *   is on the `role-based-email-addresses` package's list (about 1 000).
 * Both lists are read once, into sets: an import of a million rows pays a few lookups a row.
 */
const DISPOSABLE = new Set((disposableDomains as string[]).map((d) => d.toLowerCase()));
const ROLES = new Set(rolePrefixes.map((p) => p.toLowerCase()));

/** Whether `domain` or a domain above it (x.mailinator.com under mailinator.com) is a disposable one. */
function disposableDomain(domain: string): boolean {
  for (let d = domain; d.includes("."); d = d.slice(d.indexOf(".") + 1)) if (DISPOSABLE.has(d)) return true;
  return false;
}

/** The flags of a valid, lower-cased address; empty for most. */
export function addressFlags(email: string): AddressFlag[] {
  const at = email.lastIndexOf("@");
  const flags: AddressFlag[] = [];
  if (disposableDomain(email.slice(at + 1))) flags.push("disposable");
  const local = email.slice(0, at);
  const plus = local.indexOf("+");
  if (ROLES.has(plus < 0 ? local : local.slice(0, plus))) flags.push("role");
  return flags;
}
