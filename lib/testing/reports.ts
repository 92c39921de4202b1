import { randomUUID } from "node:crypto";

const CRLF = "\r\n";

export type DsnInput = {
  /** Who the report is sent to (the return-path address, or the inbox). */
  to: string;
  action: "failed" | "delayed" | "delivered" | "relayed";
  status?: string;
  diagnostic?: string;
  finalRecipient: string;
  /** The Message-ID of the original message, quoted in its headers part. */
  originalMessageId?: string;
  envelopeId?: string;
  /** How the original's headers come back (RET=HDRS: text/rfc822-headers; some MTAs: message/rfc822). */
  original?: "text/rfc822-headers" | "message/rfc822" | "none";
  boundary?: string;
};

/** A delivery status notification (RFC 3464) as a relay or a mailbox provider writes one. */
export function rawDsn(input: DsnInput): string {
  const boundary = input.boundary ?? `dsn-${randomUUID()}`;
  const recipient = [
    `Final-Recipient: rfc822; ${input.finalRecipient}`,
    `Original-Recipient: rfc822;${input.finalRecipient}`,
    `Action: ${input.action}`,
    `Status: ${input.status ?? (input.action === "delivered" ? "2.0.0" : input.action === "delayed" ? "4.4.7" : "5.1.1")}`,
    "Remote-MTA: dns; mx.example.net",
    ...(input.diagnostic ? [`Diagnostic-Code: smtp; ${input.diagnostic}`] : []),
  ];
  const original = input.original ?? "text/rfc822-headers";
  const parts = [
    `--${boundary}`,
    "Content-Type: text/plain; charset=us-ascii",
    "",
    input.action === "delivered"
      ? "Your message was delivered."
      : "This is the mail system at host relay.example. I'm sorry to have to inform you that your message could not be delivered.",
    `--${boundary}`,
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; relay.example",
    ...(input.envelopeId ? [`Original-Envelope-Id: ${input.envelopeId}`] : []),
    `Arrival-Date: ${new Date().toUTCString()}`,
    "",
    ...recipient,
    "",
  ];
  if (original !== "none") {
    parts.push(
      `--${boundary}`,
      `Content-Type: ${original}`,
      "",
      "From: News <news@acme.test>",
      `To: ${input.finalRecipient}`,
      "Subject: The news",
      ...(input.originalMessageId ? [`Message-ID: ${input.originalMessageId}`] : []),
      "",
      ...(original === "message/rfc822" ? ["The original body.", ""] : []),
    );
  }
  parts.push(`--${boundary}--`, "");
  return [
    "From: Mail Delivery System <MAILER-DAEMON@relay.example>",
    `To: ${input.to}`,
    `Subject: ${input.action === "delivered" ? "Successful Mail Delivery Report" : "Undelivered Mail Returned to Sender"}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@relay.example>`,
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    `Content-Type: multipart/report; report-type=delivery-status;${CRLF} boundary="${boundary}"`,
    "",
    ...parts,
  ].join(CRLF);
}

/** A complaint (RFC 5965 ARF) as a mailbox provider's feedback loop sends it, with the whole original. */
export function rawArf(input: { to: string; recipient: string; originalMessageId?: string; feedbackType?: string }): string {
  const boundary = `arf-${randomUUID()}`;
  return [
    "From: Feedback Loop <fbl@mailbox.example>",
    `To: ${input.to}`,
    "Subject: FW: The news",
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@mailbox.example>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain",
    "",
    "This is an email abuse report for an email message received from IP 192.0.2.10.",
    `--${boundary}`,
    "Content-Type: message/feedback-report",
    "",
    `Feedback-Type: ${input.feedbackType ?? "abuse"}`,
    "User-Agent: SomeGenerator/1.0",
    "Version: 1",
    `Original-Rcpt-To: ${input.recipient}`,
    "Source-IP: 192.0.2.10",
    "",
    `--${boundary}`,
    "Content-Type: message/rfc822",
    "",
    "From: News <news@acme.test>",
    `To: ${input.recipient}`,
    "Subject: The news",
    ...(input.originalMessageId ? [`Message-ID: ${input.originalMessageId}`] : []),
    "",
    "The original body.",
    "",
    `--${boundary}--`,
    "",
  ].join(CRLF);
}
