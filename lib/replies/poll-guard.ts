import type { ImapFlow } from "imapflow";
import type { PollLimits } from "./poll-limits";

/**
 * Why a poll was stopped by one of its limits: its deadline, a step's timeout, the poll's byte cap,
 * an answer larger than the client holds (`oversize`), or the worker stopping.
 */
export class PollLimitError extends Error {
  constructor(
    message: string,
    readonly kind: "deadline" | "timeout" | "bytes" | "oversize" | "stopping",
  ) {
    super(message);
    this.name = "PollLimitError";
  }
}

/** What ImapFlow reports (as an 'error' event) when a server sends more than its caps allow; it then drops the connection. */
const OVERSIZE_CODES = new Set(["LiteralTooLarge", "ResponseTooLarge", "LineTooLarge", "TooManyTokens"]);

/** How often the bytes read are compared with the poll's cap, whatever the server is sending. */
const METER_MS = 100;

/**
 * The limits of one inbox's poll, enforced from outside the IMAP client: the poll's deadline, the
 * command timeout of each step and the bytes read. ImapFlow's own socket timeout resets on every
 * byte (a server sending one byte every 20 s held a poll for minutes), so each wait here is a
 * fixed deadline; a limit that is reached closes the connection, which ends every wait on it.
 */
export class PollGuard {
  private reason: PollLimitError | null = null;
  private client: ImapFlow | null = null;
  private bytes = 0;
  private rejectStopped: (error: PollLimitError) => void = () => undefined;
  private readonly stopped = new Promise<never>((_, reject) => (this.rejectStopped = reject));
  private readonly deadline: NodeJS.Timeout;
  private readonly meter: NodeJS.Timeout;

  constructor(private readonly limits: PollLimits) {
    this.stopped.catch(() => undefined);
    this.deadline = setTimeout(() => this.stop(`the poll ran past its deadline (${limits.deadlineMs} ms)`, "deadline"), limits.deadlineMs);
    // Past the poll's cap by more than one message: the server is sending what was not asked for.
    this.meter = setInterval(() => {
      if (this.received() > limits.pollMaxBytes + limits.messageMaxBytes)
        this.stop(`the server sent more than ${limits.pollMaxBytes} bytes in one poll`, "bytes");
    }, METER_MS);
  }

  /** The connection the limits close. */
  attach(client: ImapFlow) {
    this.client = client;
    // The client's errors reach the command in progress as a closed connection; the cause is kept here.
    client.on("error", (error: { code?: unknown; message?: unknown }) => {
      if (typeof error?.code === "string" && OVERSIZE_CODES.has(error.code))
        this.stop(`the server sent more than the client holds of one answer (${error.code})`, "oversize");
    });
    if (this.reason) client.close();
  }

  /** Bytes read from the server so far (kept after the connection closes). */
  received(): number {
    try {
      this.bytes = Math.max(this.bytes, this.client?.stats().received ?? 0);
    } catch {
      // A closed client may have dropped its reader; the last count stands.
    }
    return this.bytes;
  }

  /** Stops the poll: every step in progress and after this rejects with the reason. */
  stop(message: string, kind: PollLimitError["kind"]) {
    if (this.reason) return;
    this.reason = new PollLimitError(message, kind);
    this.rejectStopped(this.reason);
    this.client?.close();
  }

  /** Throws the reason the poll was stopped, if it was. */
  check() {
    if (this.reason) throw this.reason;
  }

  /**
   * One step (connecting, a command) under the command timeout and the poll's deadline. A step that
   * reads several messages calls `progress` as each arrives: the timeout then bounds each message
   * (as when each was a command of its own), and the deadline the whole poll.
   */
  async step<T>(what: string, work: (progress: () => void) => Promise<T>): Promise<T> {
    this.check();
    const expire = () => this.stop(`${what} took longer than ${this.limits.commandTimeoutMs} ms`, "timeout");
    let timer = setTimeout(expire, this.limits.commandTimeoutMs);
    const progress = () => {
      clearTimeout(timer);
      timer = setTimeout(expire, this.limits.commandTimeoutMs);
    };
    try {
      return await Promise.race([work(progress), this.stopped]);
    } catch (error) {
      throw this.reason ?? error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the timers; the poll is over. */
  finish() {
    clearTimeout(this.deadline);
    clearInterval(this.meter);
  }
}
