import type { ParsedMail } from "mailparser";
import type { ThreadCategory } from "@/lib/generated/prisma/enums";
import { isAutoReply, ownText } from "./auto-reply";

/** What the rules read of a reply: its headers, subject, sender and text (mailparser's reading). */
export type CategorizedMail = Pick<ParsedMail, "headers" | "subject" | "text" | "from">;

const header = (mail: CategorizedMail, name: string) => {
  const value = mail.headers.get(name);
  if (value === undefined || value === null) return null;
  return typeof value === "object" && "value" in value ? String(value.value) : String(value);
};

// Rules over the reply's own words, in order; the first that matches decides. English, German,
// French and Spanish, as the out-of-office subjects of auto-reply.ts. Word boundaries keep
// "called" out of "call" and "uninterested" out of "interested" (it is caught by not_interested).
const BOUNCE_SUBJECT =
  /undeliver|delivery status notification|returned mail|delivery (?:has )?fail|mail delivery failed|failure notice|unzustellbar|non remis|no se (?:pudo|puede) entregar/i;
const BOUNCE_SENDER = /^(?:mailer-daemon|postmaster)@/i;
const UNSUBSCRIBE =
  /\b(?:unsubscribe|remove me|take me off|opt(?:[- ])?out|stop (?:e-?mailing|contacting|sending|writing)|do not (?:contact|e-?mail)|don'?t (?:contact|e-?mail) me|no more e-?mails)\b|abmelden|désinscri|darme de baja/i;
const NOT_INTERESTED =
  /\b(?:not (?:interested|interesting)|no interest|uninterested|not a (?:good )?fit|no thanks|no,? thank you|not (?:right )?now|not at this time|we(?:'re| are) (?:all set|happy with)|already (?:have|use|using|work with))\b|kein interesse|pas intéressée?|no (?:me |nos )?interesa/i;
const MEETING =
  /\b(?:meeting|let'?s meet|call|calendly|book (?:a|some) time|schedule|calendar|invite|zoom|google meet|available (?:on|at|for)|free (?:on|at)|let'?s (?:talk|chat|connect))\b|\btermin(?:e|vorschlag)?\b|rendez-vous|reunión|llamada/i;
const INTERESTED =
  /\b(?:interested|interesting|sounds (?:good|great)|tell me more|more (?:info|information|details)|send (?:me|over|us) (?:more|the|some)|pricing|price|quote|keen|love to|like to (?:learn|know|see|hear)|curious|demo)\b|interessiert|intéressée?|interesad[oa]|me interesa/i;

// A signature is the sender's too, but its words ("call me on …") are not what they answer.
const SIGNATURE = /^-- ?$/;

/** The words the rules read: the answer's own (auto-reply.ts's `ownText`), up to its signature. */
export function replyWords(text: string | undefined): string {
  const lines = ownText(text).split("\n");
  const signature = lines.findIndex((line) => SIGNATURE.test(line.trim()));
  return (signature < 0 ? lines : lines.slice(0, signature)).join("\n");
}

function isBounce(mail: CategorizedMail): boolean {
  const sender = mail.from?.value.find((a) => a.address)?.address ?? "";
  const contentType = header(mail, "content-type") ?? "";
  return BOUNCE_SENDER.test(sender) || /^multipart\/report/i.test(contentType) || BOUNCE_SUBJECT.test(mail.subject ?? "");
}

/**
 * The category a recorded message gives its thread, by rules (first match wins): an automatic
 * answer → `out_of_office`, by auto-reply.ts's `isAutoReply` (the one detector: reply-row.ts
 * holds the sender's follow-ups exactly when this answers `out_of_office`, and `ourSubject`, the
 * email answered, is left out of the subject test as there); a bounce (a mailer daemon or
 * postmaster, a report, a non-delivery subject); then the reply's own words, quoted text and
 * signature left out: asking to be removed → `unsubscribe`; declining → `not_interested`; a call
 * or meeting → `meeting`; interest → `interested`; anything else → `needs_reply`.
 */
export function categorizeReply(mail: CategorizedMail, ourSubject = ""): Exclude<ThreadCategory, "done"> {
  if (isAutoReply(mail, ourSubject)) return "out_of_office";
  if (isBounce(mail)) return "bounce";
  // The subject is left out: a reply's is ours ("Re: a quick call?"), not the recipient's words.
  const words = replyWords(mail.text);
  if (UNSUBSCRIBE.test(words)) return "unsubscribe";
  if (NOT_INTERESTED.test(words)) return "not_interested";
  if (MEETING.test(words)) return "meeting";
  if (INTERESTED.test(words)) return "interested";
  return "needs_reply";
}
