import { RefusedDestinationError } from "@/lib/net/outbound-policy";
import { PollLimitError } from "./poll-guard";

/** What an IMAP server's refusal of the sign-in carries (imapflow sets these). */
type ImapError = { authenticationFailed?: unknown; responseText?: unknown; code?: unknown; message?: unknown };

// Node's and OpenSSL's certificate verdicts: the server spoke TLS but was not trusted.
const CERTIFICATE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH$)/;

export const isImapAuthFailure = (error: unknown) => (error as ImapError | null)?.authenticationFailed === true;

/**
 * What a tenant is told about an IMAP failure: the server's own words when it refused the sign-in,
 * our limits' reasons, otherwise a generic sentence. Never a socket code or whatever answered on
 * the port (the host and port are the tenant's choice: the worker must not become a port scanner).
 */
export function imapFailureReason(error: unknown): string {
  const e = (error ?? {}) as ImapError;
  if (error instanceof PollLimitError) return error.message;
  if (error instanceof RefusedDestinationError) return "the IMAP server's address is not allowed (not a public address)";
  if (isImapAuthFailure(error)) {
    const words = typeof e.responseText === "string" ? e.responseText.replace(/\s+/g, " ").trim().slice(0, 300) : "";
    return `the IMAP server refused the sign-in${words ? `: ${words}` : ""}`;
  }
  if (typeof e.code === "string" && CERTIFICATE.test(e.code)) return "TLS failed: no secure connection could be made with the IMAP server";
  return "could not connect to the IMAP server";
}
