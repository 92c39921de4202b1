import type { AddressInfo } from "node:net";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { pool } from "@/lib/db/pool";
import { env } from "@/lib/env";
import { reportFingerprint } from "./fingerprint";
import { CappedSMTPServer, clientKey, ConnectionCounts, RateBuckets } from "./intake-limits";
import { readReturnPath } from "./verp";
import { errorField, log } from "@/lib/log";

/** A delivery report carries the original's headers, an ARF report the whole original: 2 MB is ample. */
const MAX_REPORT_BYTES = 2 * 1024 * 1024;
/**
 * One return-path recipient a message. A report is about one email, sent to that email's one
 * return path; a message to several would be stored once for each (ten copies of 2 MB for one
 * DATA). A sender with more gets 452 and sends them again in transactions of their own (RFC 5321
 * §4.5.3.1.10), each carrying its bytes.
 */
const MAX_RECIPIENTS = 1;
const MAX_CLIENTS = 500;
/**
 * Bytes of report held in memory at once, all connections together, beyond the first SMALL_REPORT
 * of each message: what a flood of large messages can take. Each message's first 64 KB is always
 * kept (a DSN is a few KB), so large messages never crowd real reports out; past the budget a
 * message is read to its end, dropped and answered 451.
 */
const HELD_BYTES_BUDGET = 64 * 1024 * 1024;
const SMALL_REPORT = 64 * 1024;
/** A connection idle this long between commands is closed (smtp-server's default is 60 s). */
const IDLE_TIMEOUT_MS = 30_000;

export type InboundServer = { port: number; close: () => Promise<void> };

export type InboundLimits = {
  /** Open connections per client (an IPv4 address or an IPv6 /64); 0: no cap. */
  connectionsPerClient: number;
  /** Reports per second a client may send, in bursts of ten seconds' worth; 0: no limit. */
  reportsPerClientPerSecond: number;
  /** Reports per hour to one return-path token (one email), all at once if need be; 0: no limit. */
  reportsPerTokenPerHour: number;
};

export type InboundOptions = {
  port: number;
  host?: string;
  maxBytes?: number;
  /** The settings' limits unless given (tests). */
  limits?: Partial<InboundLimits>;
  idleTimeoutMs?: number;
  /** HELD_BYTES_BUDGET unless given (tests). */
  heldBytesBudget?: number;
  /** The rates' clock (tests control it). */
  now?: () => number;
  /** Called after a report is stored (tests and the benchmark count them). */
  onStored?: (count: number) => void;
};

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** Stores the report; a repeat of the same bytes to the same address is stored once. Plain pg with a prepared statement: the listener's one query. */
async function store(recipient: string, raw: Buffer): Promise<number> {
  const result = await pool.query({
    name: "store-feedback-report",
    text: `INSERT INTO feedback_reports (source, recipient, fingerprint, raw) VALUES ('smtp', $1, $2, $3) ON CONFLICT (fingerprint) DO NOTHING`,
    values: [recipient, reportFingerprint(recipient, raw), raw],
  });
  return result.rowCount ?? 0;
}

/**
 * The inbound SMTP listener behind the return-path MX records. It accepts mail only for
 * return-path addresses whose token verifies (anything else is refused at RCPT: it relays
 * nothing, and stores nothing for an address it did not mint), bounds each message, stores it and
 * answers at once; the worker parses and records it. A failure to store is a 451, so the sending
 * server tries again later. No AUTH: receivers deliver to an MX without logging in.
 *
 * Anyone who received one email holds a token, so every resource is bounded per client and per
 * token (docs/SECURITY.md): connections per client, reports per client per second and per token
 * per hour (refused at RCPT, before any data is sent), one recipient a message, and the bytes
 * held in memory.
 */
export async function startInboundServer(options: InboundOptions): Promise<InboundServer> {
  const maxBytes = options.maxBytes ?? MAX_REPORT_BYTES;
  const budget = options.heldBytesBudget ?? HELD_BYTES_BUDGET;
  const limits: InboundLimits = {
    connectionsPerClient: env.inboundConnectionsPerClient,
    reportsPerClientPerSecond: env.inboundReportsPerClientPerSecond,
    reportsPerTokenPerHour: env.inboundReportsPerTokenPerHour,
    ...options.limits,
  };
  const perClient = new RateBuckets(limits.reportsPerClientPerSecond, limits.reportsPerClientPerSecond * 10, options.now);
  const perToken = new RateBuckets(limits.reportsPerTokenPerHour / 3600, limits.reportsPerTokenPerHour, options.now);
  let held = 0;

  const server = new CappedSMTPServer(
    {
      name: "mailplatform-inbound",
      banner: "delivery reports only",
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      size: maxBytes,
      rejectOversized: true,
      logger: false,
      disableReverseLookup: true,
      maxClients: MAX_CLIENTS,
      socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      closeTimeout: 5_000,
      onRcptTo(address, session, callback) {
        if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, "4.5.3 One report a message: send the next in a new transaction"));
        const read = readReturnPath(address.address);
        if (!read) return callback(smtpError(550, "5.1.1 No such recipient here"));
        if (!perClient.take(clientKey(session.remoteAddress))) return callback(smtpError(450, "4.7.1 Too many reports from your address, try again later"));
        if (!perToken.take(read.emailId)) return callback(smtpError(450, "4.7.1 Too many reports for this address, try again later"));
        callback();
      },
      onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
        const chunks: Buffer[] = [];
        let size = 0;
        let taken = 0;
        let dropped = false;
        const giveBack = () => {
          held -= taken;
          taken = 0;
        };
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          // Past the limit nothing more is kept; the stream is still read to its end, as SMTP requires.
          if (dropped || size > maxBytes) return;
          const large = Math.max(0, size - Math.max(SMALL_REPORT, size - chunk.length));
          if (large > 0 && held + large > budget) {
            dropped = true;
            chunks.length = 0;
            return giveBack();
          }
          held += large;
          taken += large;
          chunks.push(chunk);
        });
        stream.on("error", giveBack);
        stream.on("end", () => {
          if (stream.sizeExceeded || size > maxBytes) {
            giveBack();
            return callback(smtpError(552, "5.3.4 Message too big"));
          }
          if (dropped) return callback(smtpError(451, "4.3.1 Busy, try again later"));
          const recipient = session.envelope.rcptTo[0].address.toLowerCase();
          store(recipient, Buffer.concat(chunks, size)).then(
            (count) => {
              giveBack();
              options.onStored?.(count);
              callback(null, "2.0.0 Report received");
            },
            (error: unknown) => {
              giveBack();
              log.warn({ err: errorField(error) }, "inbound: could not store a report");
              callback(smtpError(451, "4.3.0 Try again later"));
            },
          );
        });
      },
    },
    new ConnectionCounts(limits.connectionsPerClient),
  );
  // A client that misbehaves ends its own connection, never the listener.
  server.on("error", (error) => log.warn({ err: errorField(error) }, "inbound: listener error"));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
