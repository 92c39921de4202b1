import type { DbClient } from "@/lib/db";
import { domainOf } from "@/lib/domain/addresses";
import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import type { Inbox } from "@/lib/generated/prisma/client";
import { isInboxProven, verifiedDomainNames, type ProofFields } from "@/lib/senders/proof";
import type { Reference } from "./owned-records";

// Proof of sender (the rule: lib/senders/proof.ts), as requests meet it: the verification an inbox
// shows, and the 400s of an operation naming a sender it has not proven.

export type InboxVerification = {
  status: "verified" | "pending" | "unverified";
  method: "domain" | "confirmation" | null;
  confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  confirmation_expires_at: Date | null;
};

export function inboxVerification(inbox: ProofFields, verifiedDomains: ReadonlySet<string>, now = new Date()): InboxVerification {
  const byDomain = verifiedDomains.has(domainOf(inbox.from_email));
  const pending = inbox.sender_token_hash !== null && inbox.sender_token_expires_at !== null && inbox.sender_token_expires_at > now;
  const proven = byDomain || inbox.sender_confirmed_at !== null;
  return {
    status: proven ? "verified" : pending ? "pending" : "unverified",
    method: byDomain ? "domain" : inbox.sender_confirmed_at ? "confirmation" : null,
    confirmed_at: inbox.sender_confirmed_at,
    confirmation_sent_at: proven ? null : inbox.sender_token_sent_at,
    confirmation_expires_at: pending && !proven ? inbox.sender_token_expires_at : null,
  };
}

const notVerified = (issues: { path: string; message: string }[]) =>
  new AppError(
    "INBOX_NOT_VERIFIED",
    "An inbox sends only once its from address is proven: at a verified domain of the organization, or confirmed by the link POST /v1/inboxes/{id}/send-confirmation mails to it",
    issues,
  );

/**
 * Every inbox named must be able to send: 400 INBOX_NOT_VERIFIED listing the unverified ones.
 * Inboxes that do not exist are left to the caller's ownership check.
 */
export async function assertInboxesVerified(client: DbClient, ctx: OrgContext, refs: Reference[]): Promise<void> {
  if (refs.length === 0) return;
  const [inboxes, domains] = await Promise.all([
    client.inbox.findMany({ where: { organization_id: ctx.organizationId, id: { in: [...new Set(refs.map((r) => r.id))] } } }),
    verifiedDomainNames(client, ctx.organizationId),
  ]);
  const unproven = new Map(inboxes.filter((inbox) => !isInboxProven(inbox, domains)).map((inbox) => [inbox.id.toLowerCase(), inbox]));
  const issues = refs
    .filter((ref) => unproven.has(ref.id.toLowerCase()))
    .map((ref) => ({ path: ref.path, message: `the inbox's from address ${unproven.get(ref.id.toLowerCase())!.from_email} is not verified` }));
  if (issues.length > 0) throw notVerified(issues);
}

/**
 * How an address will be sent from: through the relay (a verified domain only), through one inbox
 * (a verified domain, or that inbox's own proven address), or not yet known, as in a template
 * (a verified domain, or the address of any proven inbox of the organization).
 */
export type SendingPath = { relay: true } | { inbox: Inbox } | { anyInbox: true };

/**
 * 400 DOMAIN_NOT_VERIFIED (or INBOX_NOT_VERIFIED for the inbox's own unproven address) unless `address` may be sent from.
 * `verified`: the organization's verified domain names when the caller has read them already.
 */
export async function assertProvenSender(
  client: DbClient,
  ctx: OrgContext,
  address: string,
  path: string,
  via: SendingPath,
  verified?: Set<string>,
): Promise<void> {
  const domains = verified ?? (await verifiedDomainNames(client, ctx.organizationId));
  if (domains.has(domainOf(address))) return;
  const same = (inbox: ProofFields) => inbox.from_email.trim().toLowerCase() === address.trim().toLowerCase();
  if ("inbox" in via && same(via.inbox)) {
    if (isInboxProven(via.inbox, domains)) return;
    throw notVerified([{ path, message: `${address} is the inbox's from address, which is not verified yet` }]);
  }
  if ("anyInbox" in via) {
    const inboxes = await client.inbox.findMany({
      where: { organization_id: ctx.organizationId, from_email: { equals: address.trim(), mode: "insensitive" }, sender_confirmed_at: { not: null } },
      select: { id: true },
      take: 1,
    });
    if (inboxes.length > 0) return;
  }
  throw domainNotVerified(address, path, via);
}

/** The 400 DOMAIN_NOT_VERIFIED of an address sent from `via`, for a caller that checked the domain itself (SMTP submission's one statement). */
export function domainNotVerified(address: string, path: string, via: SendingPath): AppError {
  const alternative =
    "relay" in via ? "" : "inbox" in via ? " nor the from address of the inbox it is sent through" : " nor the from address of a verified inbox";
  return new AppError("DOMAIN_NOT_VERIFIED", `${domainOf(address)} is not a verified domain of this organization${alternative}`, [
    { path, message: "relay" in via ? "must be at a verified domain" : `must be at a verified domain or the address of a verified inbox` },
  ]);
}
