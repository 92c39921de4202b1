import net from "node:net";
import DKIM from "nodemailer/lib/dkim";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import type { MessageWithDsn } from "@/lib/feedback/outgoing";
import { openStreamedMessage } from "./streamed-message";
import type { SentInfo } from "./transports";

export type SmtpPoolOptions = SMTPConnection.Options & {
  auth?: { user?: string; pass?: string };
  maxConnections: number;
  /** A connection is closed (and another opened) after this many messages. */
  maxMessages: number;
};

type Job = { message: MessageWithDsn & { raw: Buffer }; resolve: (info: SentInfo) => void; reject: (error: unknown) => void };
/** `job`: the message in its conversation now, which a connection lost mid-way must fail (SMTPConnection only emits the error). */
type Connection = { smtp: SMTPConnection; messages: number; closed: boolean; job: Job | null };

const lostConnection = () => Object.assign(new Error("Connection closed unexpectedly"), { code: "ECONNECTION" });

/**
 * The relay's connections, driven with nodemailer's own SMTPConnection rather than its mail
 * transport. Our messages are finished bytes already (mime-message.ts); the transport still built
 * a MIME tree for each, parsed its addresses and piped it through several streams: 160-220 µs of
 * CPU per message against 85 µs for the same conversation on the connection alone (20 000
 * messages to a local smtp-server, five connections each way). Behaves as nodemailer's pool does:
 * up to `maxConnections` connections, each closed after any failure and after `maxMessages`
 * messages, opportunistic STARTTLS, DKIM with nodemailer's signer, DSN parameters on the envelope.
 */
export class SmtpPool {
  private readonly queue: Job[] = [];
  private readonly idle: Connection[] = [];
  private open = 0;
  private closed = false;

  constructor(private readonly options: SmtpPoolOptions) {}

  sendMail(message: MessageWithDsn & { raw: Buffer }): Promise<SentInfo> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(Object.assign(new Error("The SMTP pool is closed"), { code: "ECONNECTION" }));
      this.queue.push({ message, resolve, reject });
      this.dispatch();
    });
  }

  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) this.retire(connection, true);
  }

  private dispatch() {
    while (this.queue.length > 0) {
      const connection = this.idle.pop();
      if (connection) {
        this.run(connection, this.queue.shift()!);
        continue;
      }
      if (this.open >= this.options.maxConnections) return;
      this.connect();
      return;
    }
  }

  /** Opens one more connection; a connection that cannot be made fails the oldest waiting message (retried later, as a deferral). */
  private connect() {
    this.open++;
    const { host = "localhost", port = 587, secure } = this.options;
    // Plain TCP with Nagle's algorithm off (transports.ts, promptSocket); implicit TLS is the connection's own.
    const smtp = new SMTPConnection({ ...this.options, ...(secure ? {} : { connection: net.connect({ host, port, noDelay: true }) }) });
    const connection: Connection = { smtp, messages: 0, closed: false, job: null };
    let ready = false;
    const lost = (error?: unknown) => {
      if (connection.closed) return;
      connection.closed = true;
      this.open--;
      const at = this.idle.indexOf(connection);
      if (at >= 0) this.idle.splice(at, 1);
      const job = connection.job ?? (ready ? null : this.queue.shift());
      connection.job = null;
      job?.reject(error ?? lostConnection());
      if (!this.closed) this.dispatch();
    };
    smtp.on("error", (error: unknown) => lost(error));
    smtp.on("end", () => lost());
    smtp.connect(() => {
      const { user, pass } = this.options.auth ?? {};
      const start = () => {
        ready = true;
        this.release(connection);
      };
      // allowsAuth: the server offered AUTH (untyped in @types/nodemailer).
      if (!(user || pass) || !(smtp as SMTPConnection & { allowsAuth?: boolean }).allowsAuth) return start();
      smtp.login({ credentials: { user: user ?? "", pass: pass ?? "" } }, (error) => {
        if (error) {
          // The refusal first: closing emits `end`, which would fail the message as a lost connection.
          lost(error);
          return smtp.close();
        }
        start();
      });
    });
  }

  private run(connection: Connection, job: Job) {
    const { message, resolve, reject } = job;
    connection.job = job;
    const envelope: SMTPConnection.Envelope & { dsn?: MessageWithDsn["dsn"] } = {
      from: String(message.envelope?.from ?? ""),
      to: ([] as unknown[]).concat(message.envelope?.to ?? []).map(String),
    };
    if (message.dsn) envelope.dsn = message.dsn;
    // A message with attachments is streamed from the database (streamed-message.ts), never held.
    const body = message.streamed
      ? openStreamedMessage(message.streamed, message.dkim)
      : Promise.resolve(message.dkim ? new DKIM(message.dkim as DKIM.Options).sign(message.raw) : message.raw);
    body.then(
      (bytes) =>
        connection.smtp.send(envelope, bytes, (error, info) => {
          if (connection.job !== job) return; // already failed with its connection
          connection.job = null;
          connection.messages++;
          if (error) {
            // As nodemailer's pool: after any failure the connection is not trusted with another message.
            this.retire(connection, false);
            reject(error);
          } else {
            resolve({ response: info.response, messageId: message.messageId });
            this.release(connection);
          }
          if (!this.closed) this.dispatch();
        }),
      (error: unknown) => {
        // The message could not be read (the database away): retried later; the connection is fine.
        if (connection.job !== job) return;
        connection.job = null;
        reject(error);
        this.release(connection);
      },
    );
  }

  private release(connection: Connection) {
    if (connection.closed) return;
    if (this.closed || connection.messages >= this.options.maxMessages) return this.retire(connection, true);
    this.idle.push(connection);
    this.dispatch();
  }

  /** Ends a connection: with QUIT when it is healthy, by closing the socket after a failure. */
  private retire(connection: Connection, graceful: boolean) {
    if (connection.closed) return;
    connection.closed = true;
    this.open--;
    if (graceful) connection.smtp.quit();
    else connection.smtp.close();
  }
}
