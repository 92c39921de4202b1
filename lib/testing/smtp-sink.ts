import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

export type ReceivedMail = {
  envelopeFrom: string;
  envelopeTo: string[];
  /** The SMTP AUTH user of the session, when the client authenticated. */
  user: string | null;
  /** Parameters of MAIL FROM (RET, ENVID, …) and of each RCPT TO (NOTIFY, ORCPT, …), uppercase names. */
  mailFromArgs: Record<string, unknown>;
  rcptArgs: Record<string, unknown>[];
  receivedAt: number;
  /** The Message-ID header, read without parsing the whole message. */
  messageId: string | null;
  raw: Buffer;
  /** The message parsed by mailparser (the sink parses it before answering, so a broken message is refused). */
  parsed: ParsedMail;
};

function messageIdOf(raw: Buffer): string | null {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, end < 0 ? raw.length : end).toString("utf8");
  return /^message-id:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? null;
}

/** What the sink answers to RCPT TO for a recipient: a code and how many more times (Infinity: always). */
type Rule = { code: number; times: number };

export type SmtpSink = {
  host: string;
  port: number;
  /** Every accepted message, in order of arrival. */
  messages: ReceivedMail[];
  /** RCPT TO attempts per recipient (lowercase), accepted or not. */
  attempts: Map<string, number>;
  /** Answers `code` to RCPT TO of `address` for its next `times` attempts, then accepts again. */
  reject: (address: string, code: number, times?: number) => void;
  /** Resolves once `count` messages have arrived. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
  /** Until `release`, every message is read but not answered: a server that has stalled. */
  hold: () => void;
  release: () => void;
  /** Messages read and waiting for their answer (held, or within `answerDelayMs`). */
  unanswered: () => number;
  close: () => Promise<void>;
};

const messages = {
  421: "Service not available, closing transmission channel",
  450: "Mailbox unavailable, try again later",
  451: "Local error in processing, try again later",
  550: "Mailbox unavailable: no such user",
  552: "Mailbox full",
  554: "Transaction failed",
} as Record<number, string>;

function smtpError(code: number): Error & { responseCode: number } {
  return Object.assign(new Error(messages[code] ?? "Rejected"), { responseCode: code });
}

/**
 * A real SMTP server on 127.0.0.1 for tests: accepts any message (authentication optional; with
 * `credentials` a wrong password is refused), parses it with mailparser, and answers chosen codes
 * for chosen recipients.
 */
export type SmtpSinkOptions = {
  credentials?: { user: string; pass: string };
  /** Answers each message this long after it arrived (a slow server); it counts as received when answered. */
  answerDelayMs?: number;
  /** false: keep only the envelope and Message-ID, not the parsed message (tens of thousands of emails). */
  parse?: boolean;
  /** Offer the DSN extension (RFC 3461). */
  dsn?: boolean;
  /**
   * Accept only XOAUTH2 sign-ins whose token this says is good for the user (as Gmail and Exchange
   * Online do; a test asks the OAuth provider's introspection). Refused tokens get the RFC 7628
   * error challenge, then 535.
   */
  xoauth2?: (user: string, accessToken: string) => Promise<boolean>;
  /** Counts every sign-in attempt, accepted or not. */
  onSignIn?: (accepted: boolean) => void;
};

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const attempts = new Map<string, number>();
  const rules = new Map<string, Rule>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let held: { promise: Promise<void>; release: () => void } | null = null;
  let unanswered = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    size: 50 * 1024 * 1024,
    // With `dsn`, the sink announces DSN (RFC 3461) as a relay that reports delivery would.
    hideDSN: !options.dsn,
    ...(options.xoauth2 && { authMethods: ["XOAUTH2"], authOptional: false }),
    onAuth(auth, _session, callback) {
      const check = options.xoauth2;
      if (check) {
        if (auth.method !== "XOAUTH2" || !auth.accessToken) return callback(Object.assign(new Error("XOAUTH2 only"), { responseCode: 535 }));
        check(auth.username ?? "", auth.accessToken).then(
          (good) => {
            options.onSignIn?.(good);
            if (good) callback(null, { user: auth.username });
            else callback(null, { data: { status: "401", schemes: "bearer", scope: "https://mail.google.com/" } });
          },
          (error: Error) => callback(error),
        );
        return;
      }
      const expected = options.credentials;
      if (expected && (auth.username !== expected.user || auth.password !== expected.pass)) {
        return callback(Object.assign(new Error("Invalid credentials"), { responseCode: 535 }));
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const key = address.address.toLowerCase();
      attempts.set(key, (attempts.get(key) ?? 0) + 1);
      const rule = rules.get(key);
      if (rule && rule.times > 0) {
        rule.times -= 1;
        return callback(smtpError(rule.code));
      }
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        unanswered++;
        try {
          if (options.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, options.answerDelayMs));
          while (held) await held.promise;
          const parsed = options.parse === false ? ({} as ParsedMail) : await simpleParser(raw);
          received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: typeof session.user === "string" ? session.user : null,
            mailFromArgs: session.envelope.mailFrom ? { ...(session.envelope.mailFrom.args || {}) } : {},
            rcptArgs: session.envelope.rcptTo.map((rcpt) => ({ ...(rcpt.args || {}) })),
            receivedAt: Date.now(),
            messageId: messageIdOf(raw),
            raw: options.parse === false ? Buffer.alloc(0) : raw,
            parsed,
          });
          for (const waiter of waiters.filter((w) => received.length >= w.count)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
          callback();
        } catch (error) {
          callback(error as Error);
        } finally {
          unanswered--;
        }
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.on("error", () => undefined);
  const port = (server.server.address() as AddressInfo).port;

  return {
    host: "127.0.0.1",
    port,
    messages: received,
    attempts,
    reject: (address, code, times = Infinity) => rules.set(address.toLowerCase(), { code, times }),
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(() => reject(new Error(`SMTP sink: ${received.length} of ${count} messages after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received)) });
      }),
    hold: () => {
      if (held) return;
      let release = () => undefined as void;
      const promise = new Promise<void>((resolve) => (release = resolve));
      held = { promise, release };
    },
    release: () => {
      const was = held;
      held = null;
      was?.release();
    },
    unanswered: () => unanswered,
    close: () => {
      const was = held;
      held = null;
      was?.release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
