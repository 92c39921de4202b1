import type { MessageWithDsn } from "@/lib/feedback/outgoing";
import type { Outgoing } from "./prepare-batch";
import { RelayInThread } from "./relay-in-thread";
import { openStreamedMessage } from "./streamed-message";
import type { SentInfo } from "./relay-options";
import type { Transports } from "./transports";
import { systemClock, type Clock } from "@/lib/domain/clock";

export type DeliveryResult =
  | { kind: "sent"; outgoing: Outgoing; acceptedAt: Date; response: string; dsn: boolean }
  /** A permanent refusal of the recipient or message (5xx): bounced, suppressed, never retried. */
  | { kind: "bounced"; outgoing: Outgoing; code: number; reason: string }
  /** Anything temporary (4xx, connection, timeout) or a problem of the sending inbox itself: retried. */
  | { kind: "deferred"; outgoing: Outgoing; reason: string; inboxProblem: boolean };

type SmtpError = { responseCode?: unknown; code?: unknown; command?: unknown; response?: unknown; message?: unknown };

const describe = (error: SmtpError) => String(error.response ?? error.message ?? error).slice(0, 1000);

const AUTH_FAILED = "SMTP authentication failed: the server refused the credentials";
const TLS_FAILED = "TLS failed: no secure connection could be made with the SMTP server";
const NO_CONNECTION = "Could not connect to the SMTP server";

// Node's and OpenSSL's certificate verdicts; all of them mean the server spoke TLS but was not trusted.
const CERTIFICATE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH$)/;

/**
 * What a tenant is told about a failure before its server took part in a mail transaction. Never
 * a socket code or whatever answered on the port: a tenant's host and port are its own choice, and
 * ECONNREFUSED against ETIMEDOUT against a stranger's banner would make the worker a port scanner.
 */
function connectionFailureReason(error: unknown): string {
  const e = (error ?? {}) as SmtpError;
  const code = typeof e.code === "string" ? e.code : "";
  const command = typeof e.command === "string" ? e.command.toUpperCase() : "";
  if (code === "EAUTH" || command.startsWith("AUTH")) return AUTH_FAILED;
  if (code === "ETLS" || CERTIFICATE.test(code)) return TLS_FAILED;
  return NO_CONNECTION;
}

/** An answer of the server to the envelope or the message, which the tenant may read as it is. */
function answeredTransaction(e: SmtpError, command: string): boolean {
  if (e.code === "EENVELOPE" || e.code === "EMESSAGE") return true;
  return typeof e.responseCode === "number" && (command.startsWith("MAIL") || command.startsWith("RCPT") || command === "DATA");
}

/**
 * Sorts an SMTP failure. A 5xx answer to RCPT TO or to the message (DATA) is the recipient's
 * permanent bounce. Authentication, MAIL FROM, greeting and connection failures say nothing about
 * the recipient: they are the inbox's (or relay's) problem, retried, never a bounce.
 */
export function classifyFailure(error: unknown): { permanent: boolean; code: number | null; inboxProblem: boolean; reason: string } {
  const e = (error ?? {}) as SmtpError;
  const code = typeof e.responseCode === "number" ? e.responseCode : null;
  const command = typeof e.command === "string" ? e.command.toUpperCase() : "";
  const reason = answeredTransaction(e, command) || e.code === "ENORELAY" ? describe(e) : connectionFailureReason(e);
  const recipientStage = command.startsWith("RCPT") || command === "DATA" || e.code === "EMESSAGE";
  if (code !== null && code >= 500 && code < 600 && recipientStage) return { permanent: true, code, inboxProblem: false, reason };
  return { permanent: false, code, inboxProblem: !recipientStage || code === null, reason };
}

/**
 * A message with attachments goes to nodemailer as a stream of its bytes, signed here (nodemailer's
 * signer would hold it whole); the relay's thread opens the stream itself, so only the message's
 * description crosses to it.
 */
async function withStreamOpened(message: MessageWithDsn, transport: object): Promise<MessageWithDsn> {
  if (!message.streamed || transport instanceof RelayInThread) return message;
  const { streamed, dkim, ...rest } = message;
  return { ...rest, raw: await openStreamedMessage(streamed, dkim) };
}

/** `clock` says when the server accepted it (`sent_at`): the system's, or a test's. */
export async function deliver(outgoing: Outgoing, transports: Transports, clock: Clock = systemClock): Promise<DeliveryResult> {
  try {
    const inbox = outgoing.inbox ? transports.forInbox(outgoing.inbox) : null;
    const relay = inbox ? null : transports.relay();
    const message = await withStreamOpened(outgoing.message, inbox ?? relay!);
    // The relay's thread marks the email's claim once the relay accepts it (relay-thread.ts).
    const info: SentInfo = inbox ? await inbox.sendMail(message) : await relay!.sendMail(message, outgoing.email.id);
    return { kind: "sent", outgoing, acceptedAt: clock(), response: (info.response ?? info.messageId ?? "").slice(0, 998), dsn: info.dsn === true };
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.permanent && failure.code !== null) return { kind: "bounced", outgoing, code: failure.code, reason: failure.reason };
    return { kind: "deferred", outgoing, reason: failure.reason, inboxProblem: failure.inboxProblem };
  }
}
