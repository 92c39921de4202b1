import { Worker } from "node:worker_threads";
import type { MessageWithDsn } from "@/lib/feedback/outgoing";
import type { RelayJob, RelayReply, SentInfo } from "./relay-options";
import type { MailSender } from "./transports";

/**
 * The relay, driven from a thread of its own (relay-thread.ts). Measured on two cores: the worker's
 * main thread was busy about two thirds of the time claiming, preparing and recording, and every
 * SMTP reply that arrived meanwhile waited for it, which held a broadcast to three quarters of what
 * the same connections carry alone. `sendMail` answers what nodemailer would (its errors keep
 * their SMTP fields, so classifyFailure reads them the same).
 */
export type RelayInThreadOptions = {
  /**
   * The database whose claims the thread marks accepted, for messages given with their email's id
   * (the engine's); without it the thread only sends.
   */
  databaseUrl?: string;
  /** A write of the thread's failed (the database is away): it keeps the marks and tries again. */
  onWriteFailed?: (reason: string) => void;
  /** Emails whose claims the thread marked accepted, committed (relay-recorder.ts). */
  onMarked?: (emailIds: string[]) => void;
};

export class RelayInThread implements MailSender {
  private thread: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (info: SentInfo) => void; reject: (error: Error) => void }>();
  private lastId = 0;

  constructor(
    private readonly relayUrl: string,
    private readonly options: RelayInThreadOptions = {},
  ) {}

  private started(): Worker {
    if (this.thread) return this.thread;
    // tsx compiles the thread's TypeScript (the worker runs under it; vitest needs it named); a
    // profiled worker (BENCH_PROFILE) profiles the thread too.
    const execArgv = ["--import", "tsx", ...process.execArgv.filter((arg) => arg.startsWith("--cpu-prof"))];
    const thread = new Worker(new URL("./relay-thread.ts", import.meta.url), {
      workerData: { relayUrl: this.relayUrl, databaseUrl: this.options.databaseUrl },
      execArgv,
    });
    thread.unref();
    thread.on("message", (reply: RelayReply) => {
      if ("writeFailed" in reply) return this.options.onWriteFailed?.(reply.writeFailed);
      if ("marked" in reply) return this.options.onMarked?.(reply.marked);
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), reply.error));
      else waiter.resolve({ response: reply.response, messageId: reply.messageId, dsn: reply.dsn });
    });
    const stopped = (why: string) => {
      if (this.thread === thread) this.thread = null;
      // What was in flight is not known to have gone out: retried like a lost connection.
      for (const [id, waiter] of this.pending) {
        this.pending.delete(id);
        waiter.reject(Object.assign(new Error(`The relay's SMTP thread stopped: ${why}`), { code: "ECONNECTION" }));
      }
    };
    thread.on("error", (error) => stopped(error.message));
    thread.on("exit", (code) => stopped(`exit code ${code}`));
    this.thread = thread;
    return thread;
  }

  sendMail(message: MessageWithDsn, emailId?: string): Promise<SentInfo> {
    const { raw, ...rest } = message;
    // A copy of exactly the message's bytes, handed over rather than cloned (the Buffer itself may
    // be a view into a shared 8 KB pool).
    const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : new Uint8Array(raw as Buffer);
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const job: RelayJob = { id, message: rest, raw: bytes, ...(emailId && this.options.databaseUrl ? { emailId } : {}) };
      this.started().postMessage(job, [bytes.buffer]);
    });
  }

  /**
   * Starts the thread now rather than with the first message: it loads its modules for a second or
   * more, and in workers started on a loaded machine (load 20 on two cores) it answered its first
   * message 16-26 s after it was created, while the emails of the worker's first claims waited.
   */
  start(): void {
    this.started();
  }

  close(): void {
    this.thread?.postMessage("close");
    this.thread = null;
  }
}
