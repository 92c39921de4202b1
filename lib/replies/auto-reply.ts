import * as chrono from "chrono-node";
import type { ParsedMail } from "mailparser";
import { zonedInstant, type LocalDate } from "@/lib/domain/time-zones";

/** What the rules read of a message: its headers, subject and text (mailparser's reading). */
export type AutoReplyMail = Pick<ParsedMail, "headers" | "subject" | "text">;

const header = (mail: AutoReplyMail, name: string): string | null => {
  const value = mail.headers.get(name);
  if (value === undefined || value === null) return null;
  return typeof value === "object" && "value" in value ? String(value.value) : String(value);
};

// Out-of-office subjects in English, German, French and Spanish, as Outlook, Gmail and the
// vacation responders of common servers write them ("Automatic reply: …", "Abwesenheitsnotiz: …").
const OUT_OF_OFFICE_SUBJECT = new RegExp(
  [
    String.raw`out of (?:the )?office|\bOOO\b|automatic reply|auto[- ]?(?:reply|response)|autoreply|away from (?:the |my )?(?:office|desk)`,
    String.raw`on (?:vacation|holiday|annual leave|parental leave|leave)|vacation (?:reply|message|notice)|away message|i(?:'m| am) (?:currently )?away`,
    String.raw`abwesenheit|automatische antwort|nicht im büro|außer haus|im urlaub|nicht erreichbar`,
    String.raw`réponse automatique|absente? (?:du bureau|jusqu)|absence du bureau|message d'absence|en congés?|hors du bureau`,
    String.raw`respuesta automática|fuera de (?:la )?oficina|\bausente\b|de vacaciones|mensaje de ausencia|estaré fuera`,
  ].join("|"),
  "i",
);

/**
 * Whether a message is an automatic answer rather than a person replying: RFC 3834's
 * `Auto-Submitted` (anything but `no`), the vendor headers `X-Autoreply`, `X-Autorespond` and
 * `X-Auto-Response-Suppress` (Exchange marks its own automatic replies with it), `Precedence:
 * auto_reply`, or an out-of-office subject. The words of our own subject, which a reply repeats
 * ("Re: Back from holiday?"), are taken out first: they say nothing about the answer.
 */
export function isAutoReply(mail: AutoReplyMail, ourSubject = ""): boolean {
  const autoSubmitted = header(mail, "auto-submitted");
  if (autoSubmitted !== null && !autoSubmitted.trim().toLowerCase().startsWith("no")) return true;
  if (["x-autoreply", "x-autorespond", "x-auto-response-suppress"].some((name) => header(mail, name) !== null)) return true;
  if (/^auto[_-]reply$/i.test(header(mail, "precedence")?.trim() ?? "")) return true;
  const subject = mail.subject ?? "";
  const own = ourSubject.trim() ? subject.split(ourSubject.trim()).join(" ") : subject;
  return OUT_OF_OFFICE_SUBJECT.test(own);
}

// Where the quoted conversation starts: the dates of our own email below it are not the return date.
const QUOTE_START = [
  /^On .{0,200}wrote:?\s*$/i,
  /\bwrote:\s*$/i,
  /^Am .{0,200}schrieb.{0,100}:?\s*$/i,
  /^Le .{0,200}a écrit\s*:?\s*$/i,
  /^El .{0,200}escribió\s*:?\s*$/i,
  /^-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original)/i,
  /^_{8,}\s*$/,
  /^(?:From|Von|De|Sent|Gesendet|Envoyé|Enviado)\s*:/i,
];

/** The answer's own words: up to its quoted part, without `>` lines, at most 4 000 characters. */
export function ownText(text: string | undefined): string {
  const own: string[] = [];
  for (const line of (text ?? "").split(/\r?\n/)) {
    const trimmed = line.trim();
    if (QUOTE_START.some((pattern) => pattern.test(trimmed))) break;
    if (!trimmed.startsWith(">")) own.push(line);
  }
  return own.join("\n").slice(0, 4000);
}

const PARSERS = [chrono.en, chrono.de, chrono.fr, chrono.es];
/** A return further out than this is more likely a misread number than a leave; the default hold applies. */
const MAX_RETURN_DAYS = 90;
const DAY_MS = 86_400_000;

const dayKey = (d: LocalDate) => d.year * 10_000 + d.month * 100 + d.day;

/** The words searched for a return date: out-of-office answers say it in their first lines, and chrono's cost grows with the text. */
const RETURN_DATE_TEXT = 1500;

/**
 * The return date an out-of-office answer gives, as a calendar date ("back on 3 December",
 * "bis zum 3. Dezember", "de retour le 3 décembre", "hasta el 3 de diciembre"), read by chrono in
 * English, German, French and Spanish from the subject and the answer's own words. Several dates
 * ("away from 28 November, back on 3 December"): the latest. Only days after `receivedAt` and
 * within 90 days count; null when none does.
 */
export function returnDate(mail: AutoReplyMail, receivedAt: Date): LocalDate | null {
  const text = `${(mail.subject ?? "").slice(0, 200)}\n${ownText(mail.text).slice(0, RETURN_DATE_TEXT)}`;
  const today = { year: receivedAt.getUTCFullYear(), month: receivedAt.getUTCMonth() + 1, day: receivedAt.getUTCDate() };
  const latest = new Date(receivedAt.getTime() + MAX_RETURN_DAYS * DAY_MS);
  const last = { year: latest.getUTCFullYear(), month: latest.getUTCMonth() + 1, day: latest.getUTCDate() };
  let found: LocalDate | null = null;
  for (const parser of PARSERS) {
    for (const result of parser.parse(text, receivedAt, { forwardDate: true })) {
      for (const component of [result.start, result.end]) {
        if (!component?.isCertain("day")) continue;
        const date = { year: component.get("year")!, month: component.get("month")!, day: component.get("day")! };
        if (dayKey(date) <= dayKey(today) || dayKey(date) > dayKey(last)) continue;
        if (!found || dayKey(date) > dayKey(found)) found = date;
      }
    }
  }
  return found;
}

/** How long an automatic answer that gives no return date holds the sender's follow-ups. */
const DEFAULT_HOLD_DAYS = 7;

/**
 * Until when the sender of an automatic answer is away: the start of the return day it names, in
 * their zone (the contact's, else the organization's), or `DEFAULT_HOLD_DAYS` after it arrived.
 * Null when the day named has already begun there: they are back.
 */
export function awayUntil(mail: AutoReplyMail, receivedAt: Date, timeZone: string): Date | null {
  const back = returnDate(mail, receivedAt);
  if (!back) return new Date(receivedAt.getTime() + DEFAULT_HOLD_DAYS * DAY_MS);
  const until = zonedInstant({ ...back, timeMs: 0 }, timeZone);
  return until > receivedAt ? until : null;
}
