import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { pool } from "@/lib/db/pool";
import { reportFingerprint } from "./fingerprint";
import { readReturnPath } from "./verp";
import { errorField, log } from "@/lib/log";

/** A delivery report carries the original's headers, an ARF report the whole original: 2 MB is ample. */
const MAX_REPORT_BYTES = 2 * 1024 * 1024;
const MAX_RECIPIENTS = 10;

export type InboundServer = { port: number; close: () => Promise<void> };

export type InboundOptions = {
  port: number;
  host?: string;
  maxBytes?: number;
  /** Called after a report is stored (tests and the benchmark count them). */
  onStored?: (count: number) => void;
};

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * Stores the report once per return-path recipient, in one statement; a repeat of the same bytes is
 * stored once. Plain pg with a prepared statement: the listener's one query, on its hot path.
 */
async function store(recipients: string[], raw: Buffer): Promise<number> {
  const result = await pool.query({
    name: "store-feedback-report",
    text: `INSERT INTO feedback_reports (source, recipient, fingerprint, raw)
           SELECT 'smtp', r.recipient, r.fingerprint, $3 FROM unnest($1::text[], $2::text[]) AS r(recipient, fingerprint)
           ON CONFLICT (fingerprint) DO NOTHING`,
    values: [recipients, recipients.map((recipient) => reportFingerprint(recipient, raw)), raw],
  });
  return result.rowCount ?? 0;
}

/**
 * The inbound SMTP listener behind the return-path MX records. It accepts mail only for
 * return-path addresses whose token verifies (anything else is refused at RCPT: it relays
 * nothing, and stores nothing for an address it did not mint), bounds each message, stores it and
 * answers at once; the worker parses and records it. A failure to store is a 451, so the sending
 * server tries again later. No AUTH: receivers deliver to an MX without logging in.
 */
export async function startInboundServer(options: InboundOptions): Promise<InboundServer> {
  const maxBytes = options.maxBytes ?? MAX_REPORT_BYTES;
  const server = new SMTPServer({
    name: "mailplatform-inbound",
    banner: "delivery reports only",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: maxBytes,
    rejectOversized: true,
    logger: false,
    disableReverseLookup: true,
    maxClients: 500,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, "4.5.3 Too many recipients"));
      if (!readReturnPath(address.address)) return callback(smtpError(550, "5.1.1 No such recipient here"));
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        // Past the limit nothing more is kept; the stream is still read to its end, as SMTP requires.
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on("error", () => undefined);
      stream.on("end", () => {
        if (stream.sizeExceeded || size > maxBytes) return callback(smtpError(552, "5.3.4 Message too big"));
        const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        store(recipients, Buffer.concat(chunks, size)).then(
          (count) => {
            options.onStored?.(count);
            callback(null, "2.0.0 Report received");
          },
          (error: unknown) => {
            log.warn({ err: errorField(error) }, "inbound: could not store a report");
            callback(smtpError(451, "4.3.0 Try again later"));
          },
        );
      });
    },
  });
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
