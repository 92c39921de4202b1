import { isIP } from "node:net";
import { ImapFlow } from "imapflow";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { inboxAccessToken, OAuthGrantError } from "@/lib/oauth/access-token";
import { READING_REPLIES_FAILED, recordInboxFailures, recordPollSucceeded } from "@/lib/inboxes/inbox-health";
import { env } from "@/lib/env";
import { checkedAddress, defaultOutboundPolicy, type OutboundPolicy } from "@/lib/net/outbound-policy";
import { errorField, log } from "@/lib/log";
import { claimInboxes, releaseInbox, type ImapInbox } from "./claim-inboxes";
import { imapFailureReason, isImapAuthFailure } from "./imap-failure";
import { PollGuard, PollLimitError } from "./poll-guard";
import { MAX_LINE_BYTES, pollLimits, type PollLimits } from "./poll-limits";
import { readNewMessages } from "./read-messages";

export type PollOptions = {
  /** An inbox is polled at most this often, whichever worker does it (IMAP_POLL_INTERVAL_SECONDS). */
  intervalMs?: number;
  /** Most messages read from one inbox per poll; the next poll continues. */
  maxMessages?: number;
  /** Only these organizations' inboxes (tests share one database). */
  organizationIds?: string[];
  /** Where IMAP servers may be; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
  /** The operator's limits (lib/env.ts) unless given; tests use short ones. */
  limits?: Partial<PollLimits>;
};

/** The server refused a token just renewed: renewing again would not help (inbox-health.ts: fatal). */
class RenewedTokenRefused extends Error {}

/**
 * Opens the connection and signs in: with the inbox's password, or with its OAuth access token
 * (XOAUTH2), renewed once if the server refuses it (the provider may have ended it before its
 * expiry); a refusal of the renewed token is final.
 */
type SignInInbox = Pick<
  ImapInbox,
  "id" | "organization_id" | "auth_type" | "imap_host" | "imap_port" | "imap_secure" | "imap_username" | "imap_password_encrypted"
>;

async function signIn(inbox: SignInInbox, address: string, limits: PollLimits, guard: PollGuard): Promise<ImapFlow> {
  let rejected: string | undefined;
  for (;;) {
    const accessToken =
      inbox.auth_type === "oauth2" ? await guard.step("getting an OAuth access token", () => inboxAccessToken(inbox, { rejected })) : undefined;
    const imap = new ImapFlow({
      host: address,
      servername: isIP(inbox.imap_host) ? undefined : inbox.imap_host,
      port: inbox.imap_port,
      secure: inbox.imap_secure,
      auth: accessToken ? { user: inbox.imap_username, accessToken } : { user: inbox.imap_username, pass: openSecret(inbox.imap_password_encrypted ?? "") },
      logger: false,
      // Backstops only: the guard's step timeouts come first and say which step it was.
      connectionTimeout: 2 * limits.commandTimeoutMs,
      greetingTimeout: 2 * limits.commandTimeoutMs,
      socketTimeout: 2 * limits.commandTimeoutMs,
      disableAutoIdle: true,
      // Compressed, a few bytes on the wire could inflate to anything.
      disableCompression: true,
      // What the client holds of one answer: a message's part, a line, parse nodes.
      maxLiteralSize: limits.messageMaxBytes,
      maxLineLength: MAX_LINE_BYTES,
      maxResponseSize: limits.messageMaxBytes + MAX_LINE_BYTES,
      maxResponseTokens: 10_000,
    });
    guard.attach(imap);
    try {
      await guard.step("connecting (greeting and login)", () => imap.connect());
      return imap;
    } catch (error) {
      imap.close();
      if (!accessToken || !isImapAuthFailure(error)) throw error;
      if (rejected) throw new RenewedTokenRefused(`${imapFailureReason(error)} (with an access token just renewed)`);
      rejected = accessToken;
    }
  }
}

/** Reads the inbox's new messages over IMAP and records those that are replies or reports. Answers how many replies it stored. */
export async function pollInbox(inbox: ImapInbox, options: PollOptions = {}, guard = new PollGuard(pollLimits(options.limits))): Promise<number> {
  const limits = pollLimits(options.limits);
  let client: ImapFlow | null = null;
  try {
    // Checked now, on the address it resolves to now; ImapFlow then connects to that very address
    // (no second resolution to rebind) and verifies TLS against the host name.
    const { address } = await guard.step("resolving the IMAP host", () =>
      checkedAddress(inbox.imap_host, inbox.imap_port, options.policy ?? defaultOutboundPolicy()),
    );
    const imap = await signIn(inbox, address, limits, guard);
    client = imap;
    const lock = await guard.step("EXAMINE INBOX", () => imap.getMailboxLock("INBOX", { readOnly: true }));
    try {
      return await readNewMessages(imap, inbox, guard, limits, options.maxMessages ?? 500);
    } finally {
      lock.release();
    }
  } finally {
    if (client) {
      const open = client;
      await guard.step("LOGOUT", () => open.logout()).catch(() => open.close());
    }
    guard.finish();
  }
}

/**
 * Signs in to the inbox's IMAP server and out again, under the poll's limits: the connection test
 * of an inbox being saved (lib/services/inbox-connection-test.ts). Throws what a poll would.
 */
export async function checkImapSignIn(inbox: SignInInbox, options: Pick<PollOptions, "policy" | "limits"> = {}): Promise<void> {
  const limits = pollLimits(options.limits);
  const guard = new PollGuard(limits);
  let client: ImapFlow | null = null;
  try {
    const { address } = await guard.step("resolving the IMAP host", () =>
      checkedAddress(inbox.imap_host, inbox.imap_port, options.policy ?? defaultOutboundPolicy()),
    );
    client = await signIn(inbox, address, limits, guard);
    const open = client;
    await guard.step("LOGOUT", () => open.logout());
    client = null;
  } finally {
    client?.close();
    guard.finish();
  }
}

/**
 * Where every failed poll ends up (a server that cannot be reached, refuses the login, is too slow
 * or sends too much). It counts against the inbox's health (inbox-health.ts): a run of them, or a
 * renewed token refused, turns the inbox `error`. A refused OAuth grant was recorded where it was
 * refused (lib/oauth); a worker stopping is no failure of the inbox.
 */
async function pollFailed(inbox: ImapInbox, error: unknown) {
  const fields = { inbox_id: inbox.id, organization_id: inbox.organization_id };
  if (error instanceof PollLimitError && error.kind === "stopping") return log.info({ ...fields, reason: error.message }, "IMAP poll of an inbox cut short");
  if (error instanceof PollLimitError) log.warn({ ...fields, reason: error.message }, `IMAP poll of an inbox stopped: ${error.message}`);
  else log.warn({ ...fields, err: errorField(error) }, "IMAP poll of an inbox failed");
  if (error instanceof OAuthGrantError) return;
  const fatal = error instanceof RenewedTokenRefused;
  const reason = READING_REPLIES_FAILED + (fatal ? (error as Error).message : imapFailureReason(error));
  await db.$transaction((tx) => recordInboxFailures(tx, [{ id: inbox.id, reason, fatal }]));
}

/** Polls a claimed inbox and ends its claim; answers the replies stored (0 when the poll failed). */
async function pollClaimed(inbox: ImapInbox, options: PollOptions, running: Set<PollGuard>): Promise<number> {
  const guard = new PollGuard(pollLimits(options.limits));
  running.add(guard);
  try {
    const replies = await pollInbox(inbox, options, guard);
    await recordPollSucceeded(db, inbox);
    return replies;
  } catch (error) {
    await pollFailed(inbox, error).catch((failure: unknown) => log.warn({ inbox_id: inbox.id, err: errorField(failure) }, "could not record a failed poll"));
    return 0;
  } finally {
    running.delete(guard);
    // If this fails (the database is away), the claim lapses at the poll's deadline by itself.
    await releaseInbox(inbox).catch(() => undefined);
  }
}

const claimOptions = (options: PollOptions, limit: number) => ({
  limit,
  intervalMs: options.intervalMs ?? env.imapPollIntervalSeconds * 1000,
  deadlineMs: pollLimits(options.limits).deadlineMs,
  organizationPolls: pollLimits(options.limits).organizationPolls,
  organizationIds: options.organizationIds,
});

/**
 * One round of polling: claims up to `concurrency` due inboxes (at most one per organization, see
 * claimInboxes) and polls them side by side. Answers how many replies were stored.
 */
export async function pollReplies(options: PollOptions = {}): Promise<number> {
  const inboxes = await claimInboxes(claimOptions(options, pollLimits(options.limits).concurrency));
  const counts = await Promise.all(inboxes.map((inbox) => pollClaimed(inbox, options, new Set())));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * The worker's poller: `concurrency` lanes each run `pollNext` (worker/tasks.ts), so a slow server
 * holds one lane and the others go on claiming; `abort` ends the polls in progress when the worker stops.
 */
export function createReplyPoller(options: PollOptions = {}) {
  const running = new Set<PollGuard>();
  return {
    concurrency: pollLimits(options.limits).concurrency,
    /** Claims one due inbox and polls it; answers 1 when there was one (the lane goes on at once), else 0. */
    pollNext: async (): Promise<number> => {
      const [inbox] = await claimInboxes(claimOptions(options, 1));
      if (!inbox) return 0;
      await pollClaimed(inbox, options, running);
      return 1;
    },
    abort: () => {
      for (const guard of running) guard.stop("the worker is stopping", "stopping");
    },
  };
}
