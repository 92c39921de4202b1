import { randomUUID } from "node:crypto";
import { simpleParser, type ParsedMail } from "mailparser";
import { isFeedbackReport } from "@/lib/feedback/parse-report";
import { messageIds, replyCandidates } from "./message-ids";

/** A message read from an inbox, as the rules see it before the database is asked. */
export type Incoming =
  /** A delivery report or complaint: lib/feedback records it against the email it quotes. */
  | { kind: "report"; raw: Buffer }
  /** `unmatched`: it names no earlier message; `automatic`: a report nobody wrote (a read receipt, say). */
  | { kind: "unmatched" | "automatic" }
  /** It may answer one of ours: `candidates`, the Message-IDs it names, best first. */
  | { kind: "reply"; mail: ParsedMail; candidates: string[]; messageId: string };

/**
 * Message-IDs of one message looked up: its In-Reply-To and its newest References. A longer thread
 * names older emails of ours too, answered by then; a message naming thousands would only make the
 * batch's lookup large.
 */
const MAX_CANDIDATES = 100;

/** A report other than the bounces and complaints lib/feedback reads (a read receipt, say): nobody wrote it. */
function isOtherReport(mail: ParsedMail): boolean {
  const contentType = mail.headers.get("content-type");
  const type = typeof contentType === "object" && contentType && "value" in contentType ? String(contentType.value) : String(contentType ?? "");
  return type.toLowerCase() === "multipart/report";
}

/** Parses a raw RFC 822 message, as IMAP hands it over, and tells what it is. */
export async function readIncoming(source: Buffer | string): Promise<Incoming> {
  const mail = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
  if (isFeedbackReport(mail)) return { kind: "report", raw: Buffer.isBuffer(source) ? source : Buffer.from(source, "utf8") };
  const candidates = replyCandidates(mail.inReplyTo, mail.references).slice(0, MAX_CANDIDATES);
  if (candidates.length === 0) return { kind: "unmatched" };
  if (isOtherReport(mail)) return { kind: "automatic" };
  return { kind: "reply", mail, candidates, messageId: messageIds(mail.messageId)[0] ?? `<${randomUUID()}@reply.invalid>` };
}

// Header fields after unfolding (RFC 5322 2.2.3): any In-Reply-To or References with a value, and a
// Content-Type that may be a report (or is encoded, which only the full parse can read).
const NAMES_EARLIER = /^(?:in-reply-to|references)[ \t]*:[ \t]*\S/im;
const MAY_BE_REPORT = /^content-type[ \t]*:.*(?:report|=\?)/im;

/**
 * Whether a message, judged by its header block alone, can be anything the recorder records: a
 * message naming earlier ones (In-Reply-To, References) or a delivery report or complaint. The poller
 * reads the rest of a message only when this holds. A cheap test of the raw fields, which holds for
 * every message the full parse would take for one (and for a few it then leaves alone): parsing every
 * header block with mailparser cost as much as parsing the whole reply.
 */
export function headersMayBeReplyOrReport(header: Buffer): boolean {
  const text = header.toString("latin1").replace(/\r?\n[ \t]+/g, " ");
  return NAMES_EARLIER.test(text) || MAY_BE_REPORT.test(text);
}
