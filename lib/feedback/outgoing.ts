import type Mail from "nodemailer/lib/mailer";
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import type { StreamedMessage } from "@/lib/sending/streamed-message";
import { returnPathAddress } from "./verp";

/**
 * What the DKIM signature covers: the identity and MIME headers, and both unsubscribe headers
 * (RFC 8058 §4 requires List-Unsubscribe-Post signed too; nodemailer's default list omits it).
 */
const SIGNED_HEADERS = [
  "From",
  "Sender",
  "Reply-To",
  "To",
  "Cc",
  "Subject",
  "Date",
  "Message-ID",
  "In-Reply-To",
  "References",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
].join(":");

export const signing = (key: { domainName: string; keySelector: string; privateKey: string } | undefined): Mail.Options["dkim"] =>
  key ? { ...key, headerFieldNames: SIGNED_HEADERS } : undefined;

/**
 * The envelope of a relay email: the VERP sender at the domain's return path, and a request for
 * delivery status notifications (RFC 3461) of success and failure, with the headers only, the
 * email's id as ENVID and the recipient as ORCPT. nodemailer sends the DSN parameters only when
 * the relay announces DSN.
 */
export function returnPathEnvelope(emailId: string, to: string, host: string): { from: string; dsn: SMTPConnection.DSNOptions } {
  return {
    from: returnPathAddress(emailId, host),
    dsn: { ret: "HDRS", envid: emailId, notify: ["SUCCESS", "FAILURE"], orcpt: `rfc822;${to}` },
  };
}

/**
 * nodemailer reads `dsn` from the message options (its types only know it on the envelope).
 * `streamed`: a message with attachments, in place of `raw` (lib/sending/streamed-message.ts).
 */
export type MessageWithDsn = Mail.Options & { dsn?: SMTPConnection.DSNOptions; streamed?: StreamedMessage };
