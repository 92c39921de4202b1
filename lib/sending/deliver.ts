import type { Outgoing } from "./prepare-batch";
import type { Transports } from "./transports";

export type DeliveryResult =
  | { kind: "sent"; outgoing: Outgoing; acceptedAt: Date; response: string }
  /** A permanent refusal of the recipient or message (5xx): bounced, suppressed, never retried. */
  | { kind: "bounced"; outgoing: Outgoing; code: number; reason: string }
  /** Anything temporary (4xx, connection, timeout) or a problem of the sending inbox itself: retried. */
  | { kind: "deferred"; outgoing: Outgoing; reason: string; inboxProblem: boolean };

type SmtpError = { responseCode?: unknown; code?: unknown; command?: unknown; response?: unknown; message?: unknown };

const describe = (error: SmtpError) => String(error.response ?? error.message ?? error).slice(0, 1000);

/**
 * Sorts an SMTP failure. A 5xx answer to RCPT TO or to the message (DATA) is the recipient's
 * permanent bounce. Authentication, MAIL FROM, greeting and connection failures say nothing about
 * the recipient: they are the inbox's (or relay's) problem, retried, never a bounce.
 */
export function classifyFailure(error: unknown): { permanent: boolean; code: number | null; inboxProblem: boolean; reason: string } {
  const e = (error ?? {}) as SmtpError;
  const code = typeof e.responseCode === "number" ? e.responseCode : null;
  const command = typeof e.command === "string" ? e.command.toUpperCase() : "";
  const reason = describe(e);
  const recipientStage = command.startsWith("RCPT") || command === "DATA" || e.code === "EMESSAGE";
  if (code !== null && code >= 500 && code < 600 && recipientStage) return { permanent: true, code, inboxProblem: false, reason };
  return { permanent: false, code, inboxProblem: !recipientStage || code === null, reason };
}

export async function deliver(outgoing: Outgoing, transports: Transports): Promise<DeliveryResult> {
  try {
    const transport = outgoing.inbox ? transports.forInbox(outgoing.inbox) : transports.relay();
    const info = (await transport.sendMail(outgoing.message)) as { response?: string; messageId?: string };
    return { kind: "sent", outgoing, acceptedAt: new Date(), response: (info.response ?? info.messageId ?? "").slice(0, 998) };
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.permanent && failure.code !== null) return { kind: "bounced", outgoing, code: failure.code, reason: failure.reason };
    return { kind: "deferred", outgoing, reason: failure.reason, inboxProblem: failure.inboxProblem };
  }
}
