import type { AddressInfo } from "node:net";
import type { SMTPServerAuthentication, SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { rateLimits, refusal } from "@/lib/api/rate-limit";
import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { env } from "@/lib/env";
import { CappedSMTPServer, clientKey, ConnectionCounts } from "@/lib/feedback/intake-limits";
import { sendingLimits } from "@/lib/schemas/send-email";
import { authenticateApiKey } from "@/lib/services/api-keys";
import { GroupCommit } from "./group-commit";
import { errorField, log } from "@/lib/log";
import { parseSubmission } from "./parse-submission";
import { answerFor, smtpError } from "./smtp-answers";

/**
 * The largest message announced in SIZE: 10 MB of attachments are about 13.4 MB of base64, and the
 * rest (text, HTML, headers, MIME structure) gets what an API request has beside its attachments.
 */
export const SUBMISSION_MAX_BYTES = Math.ceil((sendingLimits.attachmentBytes * 4) / 3) + 5 * 1024 * 1024;
/** Envelope recipients of one message: as many as to, cc and bcc may hold together. */
const MAX_RECIPIENTS = 3 * sendingLimits.recipients;
const MAX_CLIENTS = 200;
/** Messages parsed at once in this process (each holds its text and HTML while parsing); more wait, their sockets paused. */
const PARSE_SLOTS = 16;
/** Messages of one organization parsed at once: one tenant never holds every slot. */
const PARSES_PER_ORGANIZATION = 8;
const IDLE_TIMEOUT_MS = 30_000;

export type SubmissionOptions = {
  port: number;
  host?: string;
  /** PEM key and certificate: STARTTLS offered, and AUTH only after it (but on loopback). */
  tls?: { key: Buffer; cert: Buffer } | null;
  /** Plain AUTH from other hosts without TLS (SUBMISSION_ALLOW_INSECURE_AUTH). */
  allowInsecureAuth?: boolean;
  /** Open connections per client (an IPv4 address or an IPv6 /64); 0: no cap. */
  connectionsPerClient?: number;
  idleTimeoutMs?: number;
  /** Whether a client may AUTH without TLS: loopback unless given (tests play a client on another host). */
  trustedClient?: (address: string | undefined) => boolean;
  /** Called with each email created (tests, the benchmark). */
  onQueued?: (emailId: string) => void;
};

export type SubmissionServer = { port: number; close: () => Promise<void> };

const isLoopback = (address: string | undefined) => !!address && (/^127\./.test(address) || address === "::1" || /^::ffff:127\./i.test(address));

/** Counted slots: `take` waits for a free one (in order of arrival). */
class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async take(): Promise<() => void> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    };
  }
}

const contextOf = (session: SMTPServerSession) => session.user as unknown as OrgContext | undefined;

/**
 * SMTP submission for applications (`npm run submission`): AUTH PLAIN or LOGIN with the user
 * `apikey` and an API key as the password, then each message is an email exactly as POST /v1/emails
 * makes one, through the same service (verified From, a sending key's domain, suppression,
 * tracking, webhooks, idempotency by Message-ID). Defences (docs/SECURITY.md, "SMTP submission"):
 * credentials travel in clear only on loopback unless the operator says otherwise, failed AUTH
 * counts against the client's address as failed API requests do, every key's messages count
 * against its API rate limit, and connections, recipients, sizes, idle time and parsing are bounded
 * per client, per organization and in all.
 */
export async function startSubmissionServer(options: SubmissionOptions): Promise<SubmissionServer> {
  const tls = options.tls ?? null;
  const insecure = options.allowInsecureAuth ?? false;
  const trusted = options.trustedClient ?? isLoopback;
  const slots = new Slots(PARSE_SLOTS);
  const parsing = new Map<string, { slots: Slots; users: number }>();
  const commits = new GroupCommit();

  const server = new CappedSMTPServer(
    {
      name: "mailplatform-submission",
      banner: "mail submission: AUTH with the user apikey and an API key as the password",
      authMethods: ["PLAIN", "LOGIN"],
      size: SUBMISSION_MAX_BYTES,
      ...(tls ? { key: tls.key, cert: tls.cert, minVersion: "TLSv1.2" as const } : { disabledCommands: ["STARTTLS"] }),
      // With a certificate, AUTH waits for STARTTLS (538 before it); without one, onConnect keeps other hosts out.
      allowInsecureAuth: !tls || insecure,
      logger: false,
      disableReverseLookup: true,
      maxClients: MAX_CLIENTS,
      socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      closeTimeout: 5_000,
      hideDSN: true,
      onConnect(session, callback) {
        if (!tls && !insecure && !trusted(session.remoteAddress)) {
          return callback(smtpError(554, "5.7.0 This listener takes clients on other hosts only over TLS, and none is configured"));
        }
        callback();
      },
      onAuth(auth: SMTPServerAuthentication, session, callback) {
        const address = clientKey(session.remoteAddress);
        void (async () => {
          const refused = refusal(rateLimits.blockedAddress(address));
          if (refused) return callback(smtpError(454, `4.7.0 ${refused.message}`));
          const ctx = auth.username === "apikey" && auth.password ? await authenticateApiKey(auth.password) : null;
          if (!ctx) {
            await rateLimits.failedAuthentication(address);
            return callback(smtpError(535, "5.7.8 Authentication failed: the user is apikey and the password an API key"));
          }
          callback(null, { user: { ...ctx, ip: session.remoteAddress ?? null } as never });
        })().catch((error: unknown) => {
          log.warn({ err: errorField(error) }, "submission: authentication could not be checked");
          callback(smtpError(454, "4.7.0 Authentication is not available now, try again later"));
        });
      },
      onMailFrom(_address, session, callback) {
        const ctx = contextOf(session);
        if (!ctx) return callback(smtpError(530, "5.7.0 Authentication required"));
        // The key's and its organization's API rate limits: a message costs what a request does.
        rateLimits.forCaller(`key:${ctx.apiKeyId}`, ctx.organizationId).then(
          (verdicts) => {
            const refused = refusal(verdicts);
            callback(refused ? smtpError(451, `4.7.1 ${refused.message}`) : undefined);
          },
          () => callback(smtpError(451, "4.3.0 Try again later")),
        );
      },
      onRcptTo(address, session, callback) {
        const ctx = contextOf(session);
        if (!ctx) return callback(smtpError(530, "5.7.0 Authentication required"));
        if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, `4.5.3 At most ${MAX_RECIPIENTS} recipients a message`));
        // Suppressed recipients are checked with the message, as POST /v1/emails checks them (550
        // naming each): a lookup here, one round trip a recipient in series, cost a third of a message's time.
        callback();
      },
      onData(stream: SMTPServerDataStream, session, callback) {
        const ctx = contextOf(session)!;
        const envelopeTo = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        void (async () => {
          // Its organization's turn first, then one of the process's: a tenant's many connections
          // wait behind each other (their sockets paused), never in front of another tenant.
          let own = parsing.get(ctx.organizationId);
          if (!own) parsing.set(ctx.organizationId, (own = { slots: new Slots(PARSES_PER_ORGANIZATION), users: 0 }));
          own.users++;
          const releaseOwn = await own.slots.take();
          const release = await slots.take();
          try {
            const submission = await parseSubmission(stream, envelopeTo);
            if (stream.sizeExceeded) throw smtpError(552, `5.3.4 The message is larger than ${SUBMISSION_MAX_BYTES} bytes`);
            try {
              // A repeat of the same message (its Message-ID) creates nothing new: a client that lost our answer sends again.
              const key = submission.messageId ? `smtp:${submission.messageId}`.slice(0, 255) : null;
              const email = await commits.submit(ctx, submission.request, key);
              options.onQueued?.(email.id);
              callback(null, `2.0.0 Queued as ${email.id}`);
            } finally {
              await Promise.all(submission.request.attachments.map((file) => file.upload.dispose()));
            }
          } catch (error) {
            if (stream.sizeExceeded) return callback(smtpError(552, `5.3.4 The message is larger than ${SUBMISSION_MAX_BYTES} bytes`));
            if ((error as { responseCode?: unknown }).responseCode) return callback(error as Error);
            const answer = answerFor(error);
            if (!(error instanceof AppError)) log.warn({ err: errorField(error) }, "submission: a message could not be taken");
            callback(answer);
          } finally {
            release();
            releaseOwn();
            if (--own.users === 0) parsing.delete(ctx.organizationId);
          }
        })();
      },
    },
    new ConnectionCounts(options.connectionsPerClient ?? env.submissionConnectionsPerClient),
  );
  // A client that misbehaves ends its own connection, never the listener.
  server.on("error", (error) => log.warn({ err: errorField(error) }, "submission: listener error"));
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
