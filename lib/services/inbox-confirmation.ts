import { createHash, randomBytes } from "node:crypto";
import nodemailer from "nodemailer";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { senderConfirmationEmail } from "@/lib/mail/sender-confirmation-email";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { classifyFailure } from "@/lib/sending/deliver";
import { inboxTransportOptions } from "@/lib/sending/transports";
import type { ConfirmOutcome } from "@/lib/schemas/inboxes";
import { getInbox } from "./inboxes";
import { isInboxProven, verifiedDomainNames } from "@/lib/senders/proof";

/** How long a confirmation link works. */
const CONFIRMATION_TTL_MS = 24 * 60 * 60_000;
/** A new confirmation replaces the last one, but not more often than this. */
const RESEND_AFTER_MS = 60_000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const confirmationLink = (token: string) => `${env.appUrl}/confirm-sender/${token}`;

export type ConfirmationOptions = { policy?: OutboundPolicy; connectTimeoutMs?: number; now?: Date };

/**
 * Mails a confirmation link to the inbox's from address through the inbox's own SMTP server
 * (checked against the outbound address policy like any of its connections). Only the token's
 * hash is kept; a new link replaces the previous one. An inbox that is already verified is
 * answered as it is, and nothing is sent.
 */
export async function sendInboxConfirmation(ctx: OrgContext, id: string, options: ConfirmationOptions = {}) {
  const organizationId = ctx.organizationId;
  const inbox = await db.inbox.findFirst({ where: { id, organization_id: organizationId } });
  if (!inbox) throw notFound("Inbox");
  if (isInboxProven(inbox, await verifiedDomainNames(db, organizationId))) return getInbox(ctx, id);
  const now = options.now ?? new Date();
  if (inbox.sender_token_sent_at && now.getTime() - inbox.sender_token_sent_at.getTime() < RESEND_AFTER_MS) {
    throw new AppError("CONFLICT", `A confirmation was mailed to ${inbox.from_email} less than a minute ago; look for it there, or try again in a minute`);
  }

  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS);
  // Only for the settings just read: a link must never prove an address or a server it was not sent for.
  const { count } = await db.inbox.updateMany({
    where: {
      id,
      organization_id: organizationId,
      from_email: inbox.from_email,
      smtp_host: inbox.smtp_host,
      smtp_port: inbox.smtp_port,
      smtp_username: inbox.smtp_username,
      sender_confirmed_at: null,
    },
    data: { sender_token_hash: tokenHash, sender_token_expires_at: expiresAt, sender_token_sent_at: now },
  });
  if (count === 0) throw new AppError("CONFLICT", "The inbox changed while the confirmation was being prepared; try again");

  const organization = await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
  const mail = senderConfirmationEmail({ address: inbox.from_email, organizationName: organization.name, link: confirmationLink(token), expiresAt });
  const transport = nodemailer.createTransport(inboxTransportOptions(inbox, options));
  try {
    await transport.sendMail({ from: { name: inbox.from_name ?? inbox.name, address: inbox.from_email }, ...mail });
  } catch (error) {
    await db.inbox.updateMany({
      where: { id, organization_id: organizationId, sender_token_hash: tokenHash },
      data: { sender_token_hash: null, sender_token_expires_at: null, sender_token_sent_at: null },
    });
    throw new AppError("MAIL_DELIVERY_FAILED", `The confirmation could not be sent through the inbox's SMTP server: ${classifyFailure(error).reason}`);
  } finally {
    transport.close();
  }
  return getInbox(ctx, id);
}

export type SenderConfirmation = { state: "valid" | "expired"; address: string; inboxName: string; organizationName: string };

/** What the confirmation page shows for a link, before anything is confirmed; null for a link that names nothing (or was used). */
export async function describeSenderConfirmation(token: string, now = new Date()): Promise<SenderConfirmation | null> {
  if (!token || token.length > 200) return null;
  const inbox = await db.inbox.findUnique({
    where: { sender_token_hash: hashToken(token) },
    select: { name: true, from_email: true, sender_token_expires_at: true, organization: { select: { name: true } } },
  });
  if (!inbox) return null;
  const expired = !inbox.sender_token_expires_at || inbox.sender_token_expires_at <= now;
  return { state: expired ? "expired" : "valid", address: inbox.from_email, inboxName: inbox.name, organizationName: inbox.organization.name };
}

/**
 * Follows a confirmation link: in one statement the token is used up and the inbox verified, so a
 * link works once even when clicked twice at the same moment. Needs no sign-in: whoever reads the
 * mailbox proves the address, whether or not they have an account here.
 */
export async function confirmSender(token: string, now = new Date()): Promise<ConfirmOutcome> {
  if (!token || token.length > 200) return { state: "invalid" };
  const tokenHash = hashToken(token);
  const confirmed = await db.$queryRaw<{ from_email: string }[]>`
    UPDATE inboxes SET sender_confirmed_at = ${now}, sender_token_hash = NULL, sender_token_expires_at = NULL, updated_at = now()
    WHERE sender_token_hash = ${tokenHash} AND sender_token_expires_at > ${now}
    RETURNING from_email`;
  if (confirmed[0]) return { state: "confirmed", address: confirmed[0].from_email };
  const expired = await db.inbox.count({ where: { sender_token_hash: tokenHash } });
  return { state: expired > 0 ? "expired" : "invalid" };
}
