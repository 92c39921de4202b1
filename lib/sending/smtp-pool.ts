import net from "node:net";
import { PassThrough, type Readable } from "node:stream";
import DKIM from "nodemailer/lib/dkim";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import type { MessageWithDsn } from "@/lib/feedback/outgoing";
import { openStreamedMessage } from "./streamed-message";
import type { SentInfo } from "./relay-options";

export type SmtpPoolOptions<Context = unknown> = SMTPConnection.Options & {
  auth?: { user?: string; pass?: string };
  maxConnections: number;
  /** A connection is closed (and another opened) after this many messages. */
  maxMessages: number;
  /**
   * Called when the server accepted a message: `free` settles when the message may give up its slot
   * (it is as good as written down), `result` is what sendMail answers with (as `settled`). Until
   * `free`, at most `maxConnections` messages are ever accepted-and-not-settled or ended and not yet
   * answered: no message is ended (its final dot, after which the server has it) without a free
   * slot (see `run`).
   */
  settle?: (context: Context | undefined, info: SentInfo) => { free: Promise<unknown>; result: Promise<unknown> };
};

type Job<Context> = {
  message: MessageWithDsn & { raw: Buffer };
  context: Context | undefined;
  resolve: (info: SentInfo & { settled?: unknown }) => void;
  reject: (error: unknown) => void;
  /** Whether it holds one of the slots to end a message in (SmtpPool.slot). */
  holdsSlot?: boolean;
};
/** `job`: the message in its conversation now, which a connection lost mid-way must fail (SMTPConnection only emits the error). */
type Connection<Context> = { smtp: SMTPConnection; messages: number; closed: boolean; job: Job<Context> | null };

/** Whether the server announced DSN in its EHLO answer (nodemailer keeps the list, untyped). */
const offersDsn = (smtp: SMTPConnection) => ((smtp as SMTPConnection & { _supportedExtensions?: string[] })._supportedExtensions ?? []).includes("DSN");

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
export class SmtpPool<Context = unknown> {
  private readonly queue: Job<Context>[] = [];
  private readonly idle: Connection<Context>[] = [];
  private open = 0;
  private closed = false;
  /** Messages ended (their final dot sent) and not yet settled; and the ones waiting to end. */
  private unsettled = 0;
  private readonly waitingToEnd: (() => void)[] = [];

  constructor(private readonly options: SmtpPoolOptions<Context>) {}

  sendMail(message: MessageWithDsn & { raw: Buffer }, context?: Context): Promise<SentInfo & { settled?: unknown }> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(Object.assign(new Error("The SMTP pool is closed"), { code: "ECONNECTION" }));
      this.queue.push({ message, context, resolve, reject });
      this.dispatch();
    });
  }

  /** A slot to end a message in: at once while fewer than maxConnections are unsettled. */
  private slot(): Promise<void> {
    if (this.unsettled < this.options.maxConnections) {
      this.unsettled++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waitingToEnd.push(resolve));
  }

  private freeSlot(job: Job<Context>) {
    if (!job.holdsSlot) return;
    job.holdsSlot = false;
    const next = this.waitingToEnd.shift();
    if (next) next();
    else this.unsettled--;
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
    const connection: Connection<Context> = { smtp, messages: 0, closed: false, job: null };
    let ready = false;
    const lost = (error?: unknown) => {
      if (connection.closed) return;
      connection.closed = true;
      this.open--;
      const at = this.idle.indexOf(connection);
      if (at >= 0) this.idle.splice(at, 1);
      const job = connection.job ?? (ready ? null : this.queue.shift());
      connection.job = null;
      if (job) this.freeSlot(job);
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

  /**
   * One message on one connection. Its bytes go out at once, but its end — the final dot, after
   * which the server has the message whatever becomes of us — waits for a free slot: with `settle`
   * recording each accepted message, a worker killed at any moment has at most `maxConnections`
   * messages the server took and nobody wrote down, one per connection ("record before the server
   * acknowledges more"), however fast the server answers. Measured through the relay at ~1 000
   * emails/s, those were 10–25 per kill before (accepted, waiting behind the worker's busy thread
   * and its batched writes).
   */
  private run(connection: Connection<Context>, job: Job<Context>) {
    const { message, reject } = job;
    connection.job = job;
    const envelope: SMTPConnection.Envelope & { dsn?: MessageWithDsn["dsn"] } = {
      from: String(message.envelope?.from ?? ""),
      to: ([] as unknown[]).concat(message.envelope?.to ?? []).map(String),
    };
    if (message.dsn) envelope.dsn = message.dsn;
    // A message with attachments is streamed from the database (streamed-message.ts), never held.
    const source: Promise<Buffer | Readable> = message.streamed
      ? openStreamedMessage(message.streamed, message.dkim)
      : Promise.resolve(message.dkim ? new DKIM(message.dkim as DKIM.Options).sign(message.raw) : message.raw);
    source.then(
      (bytes) => {
        // The connection was lost while the message was opened: `lost` failed the message already.
        if (connection.job !== job) return Buffer.isBuffer(bytes) ? undefined : void bytes.destroy();
        this.send(connection, job, envelope, bytes);
      },
      (error: unknown) => {
        // The message could not be read (the database away): retried later; the connection is fine.
        if (connection.job !== job) return;
        connection.job = null;
        reject(error);
        this.release(connection);
      },
    );
  }

  private send(connection: Connection<Context>, job: Job<Context>, envelope: SMTPConnection.Envelope & { dsn?: unknown }, bytes: Buffer | Readable) {
    const { message, resolve, reject } = job;
    let ended = false;
    const body = new PassThrough();
    const end = () => {
      if (ended) return;
      ended = true;
      // A connection that failed meanwhile sends nothing more: the slot is not needed.
      if (connection.job !== job) return body.end();
      void this.slot().then(() => {
        job.holdsSlot = true;
        if (connection.job !== job) this.freeSlot(job);
        body.end();
      });
    };
    if (Buffer.isBuffer(bytes)) {
      body.write(bytes);
      end();
    } else {
      bytes.on("error", (error) => body.destroy(error));
      bytes.on("end", end);
      bytes.pipe(body, { end: false });
    }
    connection.smtp.send(envelope, body, (error, info) => {
      if (connection.job !== job) return; // already failed with its connection
      connection.job = null;
      connection.messages++;
      if (error) {
        this.freeSlot(job);
        // As nodemailer's pool: after any failure the connection is not trusted with another message.
        this.retire(connection, false);
        reject(error);
      } else {
        // nodemailer sends the DSN parameters only to a server that offers DSN: only then can a delivery be reported.
        const sent = { response: info.response, messageId: message.messageId, dsn: Boolean(envelope.dsn) && offersDsn(connection.smtp) };
        const settling = this.options.settle?.(job.context, sent) ?? { free: Promise.resolve(), result: Promise.resolve(undefined) };
        settling.result.then(
          (settled) => resolve({ ...sent, settled }),
          () => resolve(sent),
        );
        void settling.free.catch(() => undefined).finally(() => this.freeSlot(job));
        this.release(connection);
      }
      if (!this.closed) this.dispatch();
    });
  }

  private release(connection: Connection<Context>) {
    if (connection.closed) return;
    if (this.closed || connection.messages >= this.options.maxMessages) return this.retire(connection, true);
    this.idle.push(connection);
    this.dispatch();
  }

  /** Ends a connection: with QUIT when it is healthy, by closing the socket after a failure. */
  private retire(connection: Connection<Context>, graceful: boolean) {
    if (connection.closed) return;
    connection.closed = true;
    this.open--;
    if (graceful) connection.smtp.quit();
    else connection.smtp.close();
  }
}
