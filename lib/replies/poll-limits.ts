import { env } from "@/lib/env";

/**
 * What one inbox's poll may take. An inbox's IMAP server is chosen by its organization, which may
 * be an attacker: every wait and every byte read from it is bounded, so one server can neither hold
 * the poller nor fill the worker's memory (docs/SECURITY.md, "IMAP reply polling").
 */
export type PollLimits = {
  /** Inboxes polled at once by one worker process. */
  concurrency: number;
  /** Polls of one organization running at once, across all workers. */
  organizationPolls: number;
  /** The whole poll: resolving the host, connecting, every command, recording, logging out. */
  deadlineMs: number;
  /** Connecting (TCP, TLS, greeting, login) and each command after it; also the socket's idle limit. */
  commandTimeoutMs: number;
  /** Bytes read of one message (its first ones: headers, the reply's text, a report's machine-readable parts). */
  messageMaxBytes: number;
  /** Bytes read from the server in one poll; the next poll continues after the last message handled. */
  pollMaxBytes: number;
};

/** The operator's limits (lib/env.ts), each overridable by a caller (tests use short deadlines). */
export function pollLimits(overrides: Partial<PollLimits> = {}): PollLimits {
  return {
    concurrency: env.imapPollConcurrency,
    organizationPolls: env.imapOrganizationPolls,
    deadlineMs: env.imapPollDeadlineSeconds * 1000,
    commandTimeoutMs: env.imapCommandTimeoutSeconds * 1000,
    messageMaxBytes: env.imapMessageMaxBytes,
    pollMaxBytes: env.imapPollMaxBytes,
    ...overrides,
  };
}

/** Headers read per message to decide whether it is a reply or a report (the rest, if it is, in the message's own read). */
export const HEADER_PEEK_BYTES = 64 * 1024;

/**
 * One SEARCH or FETCH response line without a literal: a SEARCH answer of ~140 000 UIDs. Bounds
 * the line buffer of a server that never ends its line.
 */
export const MAX_LINE_BYTES = 1024 * 1024;
