import { simpleParser, type ParsedMail } from "mailparser";
import { messageIds } from "@/lib/replies/message-ids";

/** One recipient's part of a delivery status notification (RFC 3464 §2.3). */
export type DsnRecipient = {
  action: string;
  /** The enhanced status code (RFC 3463), e.g. 5.1.1; null when the report gave none. */
  status: string | null;
  diagnostic: string | null;
  finalRecipient: string | null;
  originalRecipient: string | null;
};

export type ParsedReport =
  | { kind: "dsn"; envelopeId: string | null; recipients: DsnRecipient[]; originalMessageId: string | null }
  | { kind: "arf"; feedbackType: string; originalMessageId: string | null; originalRecipient: string | null };

/** What a report means for its email. */
export type FeedbackKind = "delivered" | "hard_bounce" | "soft_bounce" | "complaint";

const MAX_RECIPIENTS = 100;
const MAX_VALUE = 1000;
const MAX_HEADER_SCAN = 256 * 1024;
const STATUS = /^([245])\.\d{1,3}\.\d{1,3}$/;

/**
 * RFC 822-style field groups (a DSN's per-message and per-recipient parts, a feedback report's
 * fields): continuation lines unfolded, names lowercase, groups split at blank lines. Bounded: a
 * hostile part yields at most MAX_RECIPIENTS + 1 groups of short values.
 */
export function fieldGroups(text: string): Map<string, string>[] {
  const groups: Map<string, string>[] = [];
  let current = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.slice(0, MAX_HEADER_SCAN).split(/\r?\n/)) {
    if (line.trim() === "") {
      if (current.size > 0) groups.push(current);
      if (groups.length > MAX_RECIPIENTS) break;
      current = new Map();
      last = null;
      continue;
    }
    if (/^[ \t]/.test(line) && last) {
      current.set(last, `${current.get(last)} ${line.trim()}`.slice(0, MAX_VALUE));
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    // The first occurrence of a field wins; a repeated one is ignored.
    if (!current.has(last))
      current.set(
        last,
        line
          .slice(colon + 1)
          .trim()
          .slice(0, MAX_VALUE),
      );
    else last = null;
  }
  if (current.size > 0 && groups.length <= MAX_RECIPIENTS) groups.push(current);
  return groups;
}

/** `rfc822; a@b` → `a@b` (lowercase); other address types are kept as given. */
function address(value: string | undefined): string | null {
  if (!value) return null;
  const semicolon = value.indexOf(";");
  const bare = (semicolon >= 0 ? value.slice(semicolon + 1) : value).trim().replace(/^<|>$/g, "");
  return bare ? bare.toLowerCase().slice(0, 320) : null;
}

function statusCode(value: string | undefined): string | null {
  const code = value?.trim().split(/[\s(]/)[0] ?? "";
  return STATUS.test(code) ? code : null;
}

/** The Message-ID of the original message, from its headers (text/rfc822-headers or message/rfc822). */
function originalMessageId(headers: string | null): string | null {
  if (!headers) return null;
  const head = headers.slice(0, MAX_HEADER_SCAN).split(/\r?\n\r?\n/)[0];
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const line = /^message-id:[ \t]*(.*)$/im.exec(unfolded)?.[1];
  return line ? (messageIds(line)[0]?.slice(0, 998) ?? null) : null;
}

const reportType = (mail: ParsedMail): string | null => {
  const header = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  if (!header || typeof header !== "object" || String(header.value).toLowerCase() !== "multipart/report") return null;
  return String(header.params?.["report-type"] ?? "").toLowerCase();
};

/** Whether a message is a delivery status notification or a feedback (complaint) report. */
export function isFeedbackReport(mail: ParsedMail): boolean {
  const type = reportType(mail);
  return type === "delivery-status" || type === "feedback-report" || type === "global-delivery-status";
}

const partText = (mail: ParsedMail, types: string[]) => {
  const part = mail.attachments.find((a) => types.includes(a.contentType.toLowerCase()));
  return part ? part.content.subarray(0, MAX_HEADER_SCAN).toString("utf8") : null;
};

const ORIGINAL_PARTS = ["text/rfc822-headers", "message/rfc822", "message/global", "message/global-headers", "text/rfc822"];

/**
 * Reads an RFC 3464 delivery status notification or an RFC 5965 feedback report out of a parsed
 * message; null for anything else (no report part, a part without the fields it must have).
 */
function readReport(mail: ParsedMail): ParsedReport | null {
  const type = reportType(mail);
  const original = originalMessageId(partText(mail, ORIGINAL_PARTS));
  if (type === "delivery-status" || type === "global-delivery-status") {
    const status = partText(mail, ["message/delivery-status", "message/global-delivery-status"]);
    if (!status) return null;
    const [perMessage, ...perRecipient] = fieldGroups(status);
    const recipients = perRecipient
      .filter((group) => group.has("action") && (group.has("final-recipient") || group.has("original-recipient")))
      .slice(0, MAX_RECIPIENTS)
      .map((group) => ({
        action: (group.get("action") ?? "").toLowerCase().split(/[\s(;]/)[0],
        status: statusCode(group.get("status")),
        diagnostic: group.get("diagnostic-code") ?? null,
        finalRecipient: address(group.get("final-recipient")),
        originalRecipient: address(group.get("original-recipient")),
      }));
    if (!perMessage || recipients.length === 0) return null;
    return { kind: "dsn", envelopeId: perMessage.get("original-envelope-id")?.slice(0, 200) ?? null, recipients, originalMessageId: original };
  }
  if (type === "feedback-report") {
    const feedback = partText(mail, ["message/feedback-report"]);
    if (!feedback) return null;
    const fields = fieldGroups(feedback)[0];
    const feedbackType = fields?.get("feedback-type")?.toLowerCase().split(/[\s;]/)[0];
    if (!feedbackType) return null;
    return { kind: "arf", feedbackType, originalMessageId: original, originalRecipient: address(fields.get("original-rcpt-to")) };
  }
  return null;
}

/** Parses a raw message as a report; null for anything that is not a well-formed one. Never throws. */
export async function parseReport(raw: Buffer | string): Promise<ParsedReport | null> {
  try {
    const mail = await simpleParser(raw, { keepDeliveryStatus: true, skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
    return readReport(mail);
  } catch {
    return null;
  }
}

/**
 * What one recipient's report means: `failed` with a 5.x.x status is a hard bounce, 4.x.x or
 * `delayed` a soft one, `delivered` a delivery; anything else (relayed, expanded) says nothing.
 * A failure without a usable status falls back on the SMTP code of its diagnostic.
 */
export function dsnOutcome(recipient: DsnRecipient): FeedbackKind | null {
  if (recipient.action === "delivered") return "delivered";
  if (recipient.action === "delayed") return "soft_bounce";
  if (recipient.action !== "failed") return null;
  const klass = recipient.status?.[0] ?? /\b([45])\d\d\b/.exec(recipient.diagnostic ?? "")?.[1];
  if (klass === "4") return "soft_bounce";
  return klass === "2" ? null : "hard_bounce";
}

/** Feedback types that are a recipient's complaint (RFC 5965 §7.3); auth-failure and not-spam are not. */
export const arfOutcome = (feedbackType: string): FeedbackKind | null => (["abuse", "fraud", "virus", "other"].includes(feedbackType) ? "complaint" : null);
