import net from "node:net";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { env } from "@/lib/env";
import type { MessageWithDsn } from "@/lib/feedback/outgoing";

// What the relay's thread (relay-thread.ts) shares with the worker's main thread, apart from
// transports.ts: that module reaches the generated Prisma client through inboxes' OAuth tokens,
// which the thread then loaded before its first SMTP command (its first message 1.4-1.6 s after
// it started, against 0.8-1.1 s without, alternating, at a load of 10 on two cores).

/** `dsn`: a delivery report was asked for (the message carried DSN parameters and the server offered DSN). */
export type SentInfo = { response?: string; messageId?: string; dsn?: boolean };

/** The fields of a nodemailer error that classifyFailure (deliver.ts) reads, as they cross to another thread. */
export type SmtpErrorFields = { message: string; code?: string; command?: string; response?: string; responseCode?: number };
export type RelayJob = { id: number; message: Omit<MessageWithDsn, "raw">; raw: Uint8Array; emailId?: string };
/** An answer of the relay's thread: a message's outcome, or a failed write of the accepted marks. */
export type RelayReply =
  | { id: number; response?: string; messageId?: string; dsn?: boolean; error?: SmtpErrorFields }
  | { id: 0; writeFailed: string }
  /** Emails whose claims the thread marked accepted (relay-recorder.ts, onMarked). */
  | { id: 0; marked: string[] };

export function smtpErrorFields(error: unknown): SmtpErrorFields {
  const e = (error ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return {
    message: error instanceof Error ? error.message : String(error),
    code: text(e.code),
    command: text(e.command),
    response: text(e.response),
    responseCode: typeof e.responseCode === "number" ? e.responseCode : undefined,
  };
}

/** Connections kept open per inbox's SMTP server: enough to pipeline an instant broadcast, few enough to be polite. */
export const MAX_CONNECTIONS = 5;

/**
 * SMTP is a conversation of small commands. With Nagle's algorithm on, each one can wait for the
 * server's delayed ACK (about 40 ms), which caps a connection at a few dozen emails a second; the
 * plain-TCP sockets are opened with it off. Implicit TLS keeps nodemailer's own socket.
 */
const promptSocket: SMTPPool.Options["getSocket"] = (options, callback) => {
  if (options.secure) return callback(null, false as never);
  const connection = net.connect({ host: options.host ?? "localhost", port: options.port ?? 587, noDelay: true });
  callback(null, { connection });
};

export const pooled = {
  pool: true,
  maxConnections: MAX_CONNECTIONS,
  maxMessages: 1000,
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 60_000,
  getSocket: promptSocket,
} satisfies SMTPPool.Options;

/**
 * The operator's relay: its URL's settings with the pool's (the relay is the operator's, not checked
 * by the outbound policy), with its own number of connections (SMTP_RELAY_CONNECTIONS).
 */
export function relayTransportOptions(relayUrl: string) {
  return { ...parseConnectionUrl(relayUrl), ...pooled, maxConnections: env.smtpRelayConnections };
}
