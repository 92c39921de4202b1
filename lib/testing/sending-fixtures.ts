import { randomUUID } from "node:crypto";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import type { Contact, Inbox } from "@/lib/generated/prisma/client";
import type { Sender } from "@/lib/sending/sender";
import type { SmtpSink } from "./smtp-sink";

export type ContactSeed = { email?: string; first_name?: string | null; last_name?: string | null; metadata?: Record<string, unknown>; subscribed?: boolean };

/** Contacts of the organization, all members of one new segment. */
export async function seedSegment(organizationId: string, seeds: ContactSeed[]): Promise<{ segmentId: string; contacts: Contact[] }> {
  const segment = await db.segment.create({ data: { organization_id: organizationId, name: `Segment ${randomUUID().slice(0, 8)}` } });
  const contacts: Contact[] = [];
  for (const seed of seeds) {
    const contact = await db.contact.create({
      data: {
        organization_id: organizationId,
        email: (seed.email ?? `${randomUUID()}@example.test`).toLowerCase(),
        first_name: seed.first_name ?? null,
        last_name: seed.last_name ?? null,
        metadata: (seed.metadata ?? {}) as object,
        subscribed: seed.subscribed ?? true,
        unsubscribed_at: seed.subscribed === false ? new Date() : null,
      },
    });
    await db.segmentContact.create({ data: { segment_id: segment.id, contact_id: contact.id, organization_id: organizationId } });
    contacts.push(contact);
  }
  return { segmentId: segment.id, contacts };
}

/**
 * An inbox whose SMTP server is the sink; the password is sealed as the API stores it. It can send,
 * as a sending inbox must be proven (lib/senders/proof.ts): its address is at acme.test,
 * which becomes a verified domain of the organization, and it is confirmed as well. For an
 * unverified inbox, give `sender_confirmed_at: null` and a from address at another domain.
 */
export async function sinkInbox(organizationId: string, sink: SmtpSink, overrides: Partial<Inbox> & { password?: string } = {}): Promise<Inbox> {
  const { password, ...fields } = overrides;
  const tag = randomUUID().slice(0, 8);
  // Created verified when missing; a domain a test has set otherwise is left as it is.
  await db.domain.upsert({
    where: { organization_id_name: { organization_id: organizationId, name: SINK_INBOX_DOMAIN } },
    create: { organization_id: organizationId, name: SINK_INBOX_DOMAIN, status: "verified", verification_token: randomUUID(), verified_at: new Date() },
    update: {},
  });
  return db.inbox.create({
    data: {
      organization_id: organizationId,
      name: `Inbox ${tag}`,
      from_email: `sender-${tag}@${SINK_INBOX_DOMAIN}`,
      daily_limit: 1000,
      smtp_host: sink.host,
      smtp_port: sink.port,
      smtp_secure: false,
      smtp_username: `user-${tag}`,
      smtp_password_encrypted: sealSecret(password ?? "pass"),
      // An old inbox: `auto` is not warm-up unless a test says so.
      created_at: new Date(Date.now() - 90 * 24 * 60 * 60_000),
      sender_confirmed_at: new Date(),
      ...fields,
    },
  });
}

const SINK_INBOX_DOMAIN = "acme.test";

/** A verified domain of the organization (made verified if it exists already). */
export const verifiedDomain = (organizationId: string, name: string) =>
  db.domain.upsert({
    where: { organization_id_name: { organization_id: organizationId, name } },
    create: { organization_id: organizationId, name, status: "verified", verification_token: randomUUID(), verified_at: new Date() },
    update: { status: "verified", verified_at: new Date() },
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the sender until the organization has no email left to send (queued or sending, but for a
 * paused broadcast's, which wait for a resume), or the time runs out; `idleMs` is the pause after
 * a round that claimed nothing.
 */
export async function drain(sender: Sender, organizationId: string, { timeoutMs = 20_000, idleMs = 5 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const claimed = await sender.runOnce();
    if (claimed > 0) continue;
    const pending = await db.email.count({
      where: { organization_id: organizationId, status: { in: ["queued", "sending"] }, NOT: { broadcast: { status: "paused" } } },
    });
    if (pending === 0) return;
    if (Date.now() > deadline) throw new Error(`drain: ${pending} emails still pending after ${timeoutMs} ms`);
    await sleep(idleMs);
  }
}
