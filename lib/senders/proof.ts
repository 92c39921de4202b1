import { type DbClient, Prisma } from "@/lib/db";
import { domainOf } from "@/lib/domain/addresses";
import type { Inbox } from "@/lib/generated/prisma/client";

// Proof of sender. Mail leaves the platform only from an address the organization has shown it
// may use: an address at one of its verified domains, or an inbox's from address confirmed by a
// link mailed to it through that inbox's own SMTP server. Without this, an organization could name
// any address (another organization's verified domain, a third party's) and a server willing to
// send it. The rule is written here twice, in TypeScript for requests and in SQL for the worker;
// services (lib/services/sender-proof.ts: the 400s) and the engine (fan-out, claims) both read it here.

export type ProofFields = Pick<Inbox, "from_email" | "sender_confirmed_at" | "sender_token_hash" | "sender_token_expires_at" | "sender_token_sent_at">;

/** The lowercase names of the organization's verified domains. */
export async function verifiedDomainNames(client: DbClient, organizationId: string): Promise<Set<string>> {
  const rows = await client.domain.findMany({ where: { organization_id: organizationId, status: "verified" }, select: { name: true } });
  return new Set(rows.map((row) => row.name.toLowerCase()));
}

export const isInboxProven = (inbox: ProofFields, verifiedDomains: ReadonlySet<string>) =>
  verifiedDomains.has(domainOf(inbox.from_email)) || inbox.sender_confirmed_at !== null;

/** The same rule in SQL, for an `inboxes` row under `alias`: the worker sends through no other inbox. */
export function inboxProvenSql(alias: string): Prisma.Sql {
  const i = Prisma.raw(alias);
  return Prisma.sql`(${i}.sender_confirmed_at IS NOT NULL OR EXISTS (
    SELECT 1 FROM domains proof WHERE proof.organization_id = ${i}.organization_id AND proof.status = 'verified'
      AND proof.name = lower(trim(regexp_replace(${i}.from_email, '^.*@', '')))))`;
}
