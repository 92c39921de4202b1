import nodemailer from "nodemailer";
import { AppError } from "@/lib/domain/errors";
import type { Inbox } from "@/lib/generated/prisma/client";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { OAuthGrantError } from "@/lib/oauth/access-token";
import { imapFailureReason } from "@/lib/replies/imap-failure";
import { checkImapSignIn } from "@/lib/replies/poll-replies";
import { classifyFailure } from "@/lib/sending/deliver";
import { inboxTransportOptions } from "@/lib/sending/transports";

/** An inbox as it will be saved: its row's fields, whether or not the row exists yet. */
export type CandidateInbox = Pick<
  Inbox,
  | "id"
  | "organization_id"
  | "from_email"
  | "auth_type"
  | "smtp_host"
  | "smtp_port"
  | "smtp_secure"
  | "smtp_username"
  | "smtp_password_encrypted"
  | "imap_host"
  | "imap_port"
  | "imap_secure"
  | "imap_username"
  | "imap_password_encrypted"
>;

// A person waits for the answer: a server that has not greeted by then is not going to.
const TEST_TIMEOUT_MS = 15_000;

/** The server's own answer, on one line and short: it may be shown to the tenant who chose that server. */
const words = (text: unknown) =>
  typeof text === "string"
    ? text
        .replace(/[\u0000-\u001f\u007f]+/g, " ")
        .trim()
        .slice(0, 300)
    : "";

/** Why SMTP failed, as a tenant may read it: the server's refusal of the sign-in in its words; otherwise a generic reason, never a socket code. */
function smtpReason(error: unknown): string {
  if (error instanceof OAuthGrantError) return error.message;
  const e = (error ?? {}) as { code?: unknown; command?: unknown; response?: unknown };
  const refusal = words(e.response);
  if ((e.code === "EAUTH" || (typeof e.command === "string" && e.command.toUpperCase().startsWith("AUTH"))) && refusal) {
    return `SMTP authentication failed: ${refusal}`;
  }
  return classifyFailure(error).reason;
}

async function testSmtp(inbox: CandidateInbox, policy: OutboundPolicy | undefined): Promise<string | null> {
  const transport = nodemailer.createTransport({
    ...inboxTransportOptions(inbox, { policy, connectTimeoutMs: TEST_TIMEOUT_MS }),
    socketTimeout: TEST_TIMEOUT_MS,
  });
  try {
    // Connects, greets, upgrades to TLS where offered and signs in; sends nothing.
    await transport.verify();
    return null;
  } catch (error) {
    return smtpReason(error);
  } finally {
    transport.close();
  }
}

async function testImap(inbox: CandidateInbox, policy: OutboundPolicy | undefined): Promise<string | null> {
  if (inbox.imap_host === null || inbox.imap_port === null || inbox.imap_username === null) return null;
  try {
    await checkImapSignIn(
      {
        ...inbox,
        imap_host: inbox.imap_host,
        imap_port: inbox.imap_port,
        imap_secure: inbox.imap_secure ?? inbox.imap_port === 993,
        imap_username: inbox.imap_username,
      },
      { policy, limits: { commandTimeoutMs: TEST_TIMEOUT_MS, deadlineMs: 2 * TEST_TIMEOUT_MS } },
    );
    return null;
  } catch (error) {
    return error instanceof OAuthGrantError ? error.message : imapFailureReason(error);
  }
}

/**
 * Signs in to the inbox's SMTP server (and IMAP server, when it has one) without sending or
 * reading anything; 400 INBOX_CONNECTION_FAILED naming each server that failed, in the server's
 * words where it refused the sign-in.
 */
export async function testInboxConnection(inbox: CandidateInbox, policy?: OutboundPolicy): Promise<void> {
  const [smtp, imap] = await Promise.all([testSmtp(inbox, policy), testImap(inbox, policy)]);
  const problems = [...(smtp ? [{ path: "smtp", message: smtp }] : []), ...(imap ? [{ path: "imap", message: imap }] : [])];
  if (problems.length === 0) return;
  throw new AppError(
    "INBOX_CONNECTION_FAILED",
    `The inbox's servers could not be reached or refused to sign in: ${problems.map((p) => `${p.path.toUpperCase()}: ${p.message}`).join("; ")}`,
    problems,
  );
}
