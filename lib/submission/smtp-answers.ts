import { AppError } from "@/lib/domain/errors";

export type SmtpError = Error & { responseCode: number };

export const smtpError = (code: number, message: string): SmtpError => Object.assign(new Error(message), { responseCode: code });

/** The first issues of a refusal, as one line an SMTP client can show (`to.1: is suppressed; …`). */
function detailLine(details: unknown): string {
  if (!Array.isArray(details)) return "";
  const issues = details.slice(0, 3).map((d: { path?: string; message?: string }) => `${d.path ? `${d.path}: ` : ""}${d.message ?? ""}`);
  return issues.length > 0 ? ` (${issues.join("; ")}${details.length > 3 ? "; …" : ""})` : "";
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").slice(0, 400);

/**
 * What the SMTP client hears for an email the service refused: the same reason POST /v1/emails
 * gives, with a permanent code for what the message itself gets wrong and a temporary one for
 * anything that may pass later (a rate, the database away).
 */
export function answerFor(error: unknown): SmtpError {
  if (!(error instanceof AppError)) return smtpError(451, "4.3.0 Could not take the message now, try again later");
  const text = oneLine(`${error.message}${detailLine(error.details)}`);
  switch (error.code) {
    case "PAYLOAD_TOO_LARGE":
      return smtpError(552, `5.3.4 ${text}`);
    case "RECIPIENT_SUPPRESSED":
      return smtpError(550, `5.1.1 ${text}`);
    case "DOMAIN_NOT_VERIFIED":
    case "INBOX_NOT_VERIFIED":
    case "FORBIDDEN":
      return smtpError(550, `5.7.1 ${text}`);
    case "RATE_LIMITED":
    case "SERVICE_UNAVAILABLE":
      return smtpError(451, `4.7.1 ${text}`);
    case "CONFLICT":
      return smtpError(550, `5.7.0 ${text}`);
    default:
      return error.status >= 500 ? smtpError(451, "4.3.0 Could not take the message now, try again later") : smtpError(550, `5.6.0 ${text}`);
  }
}
