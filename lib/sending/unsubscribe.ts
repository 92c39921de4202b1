import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events/record";
import { readUnsubscribeToken } from "./unsubscribe-token";
import type { Email } from "@/lib/generated/prisma/client";

export type UnsubscribeTarget = { emailId: string; address: string; organizationName: string; unsubscribed: boolean };

/** Who a token unsubscribes, for the page; null for a forged token or a deleted email. */
export async function findUnsubscribeTarget(token: string): Promise<UnsubscribeTarget | null> {
  const emailId = readUnsubscribeToken(token);
  if (!emailId) return null;
  const email = await db.email.findUnique({
    where: { id: emailId },
    select: { id: true, to_email: true, organization: { select: { name: true } }, contact: { select: { subscribed: true } } },
  });
  if (!email) return null;
  return {
    emailId: email.id,
    address: email.to_email,
    organizationName: email.organization.name,
    unsubscribed: email.contact ? !email.contact.subscribed : false,
  };
}

/**
 * The RFC 8058 one-click POST and the page's button: the contact stops receiving marketing mail
 * (subscribed false, unsubscribed_at), the email records when, the broadcast counts it once,
 * `contact.unsubscribed` is recorded (with the email). Repeats change nothing. A contact deleted since is kept off
 * the list by a suppression. False for a forged token or a deleted email.
 */
export async function unsubscribeByToken(token: string): Promise<boolean> {
  const emailId = readUnsubscribeToken(token);
  if (!emailId) return false;
  return db.$transaction(async (tx) => {
    const [email] = await tx.$queryRaw<Pick<Email, "id" | "organization_id" | "contact_id" | "broadcast_id" | "automation_id" | "to_email">[]>`
      SELECT id, organization_id, contact_id, broadcast_id, automation_id, to_email FROM emails WHERE id = ${emailId}::uuid FOR UPDATE`;
    if (!email) return false;
    const now = new Date();

    const marked = await tx.email.updateMany({ where: { id: email.id, unsubscribed_at: null }, data: { unsubscribed_at: now } });
    if (marked.count > 0) {
      if (email.broadcast_id) {
        await tx.broadcast.update({ where: { id: email.broadcast_id }, data: { unsubscribed_count: { increment: 1 } } });
      }
    }

    if (!email.contact_id) {
      await tx.suppression.upsert({
        where: { organization_id_email: { organization_id: email.organization_id, email: email.to_email.trim().toLowerCase() } },
        create: { organization_id: email.organization_id, email: email.to_email.trim().toLowerCase(), reason: "unsubscribe" },
        update: {},
      });
      return true;
    }
    const changed = await tx.contact.updateMany({ where: { id: email.contact_id, subscribed: true }, data: { subscribed: false, unsubscribed_at: now } });
    if (changed.count > 0) {
      await recordEvent(tx, {
        organizationId: email.organization_id,
        name: "contact.unsubscribed",
        source: "unsubscribe",
        contactId: email.contact_id,
        emailId: email.id,
        broadcastId: email.broadcast_id,
        automationId: email.automation_id,
        occurredAt: now,
        properties: { reason: "link" },
        payload: {
          contact_id: email.contact_id,
          email: email.to_email,
          unsubscribed_at: now.toISOString(),
          email_id: email.id,
          broadcast_id: email.broadcast_id,
        },
      });
    }
    return true;
  });
}
