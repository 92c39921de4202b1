import { randomUUID } from "node:crypto";
import { domainToASCII } from "node:url";
import addressparser from "nodemailer/lib/addressparser";
import { encode as qpEncode, wrap as qpWrap } from "nodemailer/lib/qp";

export type MimeInput = {
  from: { name: string; address: string };
  to: string;
  /** Shown in a Cc header and added to the envelope. */
  cc?: string | null;
  /** In the envelope only: no header names them. */
  bcc?: string[];
  replyTo?: string | null;
  subject: string;
  messageId: string;
  inReplyTo?: string | null;
  references?: string[];
  /** Further headers (List-Unsubscribe, …), in this order after the standard ones. */
  headers?: Record<string, string>;
  text: string;
  html: string | null;
  date?: Date;
};

export const CRLF = "\r\n";
const LINE = 76;
const PRINTABLE = /^[\x20-\x7e]*$/;
const SEVEN_BIT_BODY = /^[\x09\x0a\x0d\x20-\x7e]*$/;
const LONG_LINE = new RegExp(`^.{${LINE + 1},}`, "m");
const NON_LATIN = /[^\x00-\x7f\u0080-\u00ff]/g;

/**
 * The boundary of one multipart entity: drawn afresh for it (randomUUID takes its bytes from a
 * cached pool, so this costs well under a microsecond) and drawn again should any part contain it.
 * A boundary one message reveals says nothing of the next, so text a recipient controls (a contact's
 * name, a variable) cannot close a part and open one of its own inside a signed message. "=_" cannot
 * occur in quoted-printable or base64 output, only in a 7bit part, which the check covers.
 */
export function multipartBoundary(parts: string[], draw: () => string = () => `=_mp_${randomUUID()}`): string {
  for (let attempt = 0; attempt < 10; attempt++) {
    const boundary = draw();
    if (!parts.some((part) => part.includes(boundary))) return boundary;
  }
  throw new Error("No multipart boundary could be found that the content does not contain");
}

const oneLine = (value: string) => value.replace(/\r?\n|\r/g, " ");

/** Mostly non-Latin text is shorter in base64 than in quoted-printable. */
const prefersBase64 = (value: string) => (value.match(NON_LATIN)?.length ?? 0) > value.length / 2;

/** RFC 2047 encoded words, each within 75 characters and none splitting a character. */
function encodedWords(value: string): string {
  const words: string[] = [];
  let word = "";
  let bytes = 0;
  for (const char of value) {
    const size = Buffer.byteLength(char);
    if (bytes + size > 45) {
      words.push(word);
      word = "";
      bytes = 0;
    }
    word += char;
    bytes += size;
  }
  if (word) words.push(word);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join(" ");
}

const encodeText = (value: string) => (PRINTABLE.test(value) ? value : encodedWords(value));

export function normalizeAddress(address: string): string {
  const clean = address.replace(/[\x00-\x1f<>]+/g, " ").trim();
  const at = clean.lastIndexOf("@");
  if (at < 0) return clean;
  const domain = clean.slice(at + 1);
  if (PRINTABLE.test(domain)) return `${clean.slice(0, at)}@${domain.toLowerCase()}`;
  // An internationalized domain travels as punycode; one that is not a valid name is left as it is.
  return `${clean.slice(0, at)}@${domainToASCII(domain.toLowerCase()) || domain}`;
}

function addressName(name: string): string {
  if (!PRINTABLE.test(name)) return encodedWords(name);
  if (/^[\w ']*$/.test(name)) return name;
  return `"${name.replace(/["\\]/g, "\\$&")}"`;
}

function mailbox(name: string, address: string): string {
  const normalized = normalizeAddress(address);
  if (!name) return normalized.includes(" ") ? `<${normalized}>` : normalized;
  return `${addressName(name)} <${normalized}>`;
}

type Mailbox = { name: string; address: string };

/** An address list as the data layer keeps it (`a@x`, `Name <a@x>`, several separated by commas). */
function mailboxes(value: string): Mailbox[] {
  if (/^[^\s<>"(),;:@\\]+@[^\s<>"(),;:@\\]+$/.test(value)) return [{ name: "", address: value }];
  return addressparser(value, { flatten: true }).filter((entry) => entry.address);
}

const addressList = (list: Mailbox[]) => list.map((entry) => mailbox(entry.name, entry.address)).join(", ");

const angled = (id: string) => {
  const value = oneLine(id).trim();
  return `${value.startsWith("<") ? "" : "<"}${value}${value.endsWith(">") ? "" : ">"}`;
};

/** A header line folded at spaces, so that lines stay within 76 characters wherever a space allows. */
export function header(key: string, value: string): string {
  let rest = `${key}: ${value}`;
  const lines: string[] = [];
  while (rest.length > LINE) {
    let at = rest.lastIndexOf(" ", LINE);
    if (at <= 0) at = rest.indexOf(" ", LINE);
    if (at < 0) break;
    lines.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  lines.push(rest);
  return lines.join(CRLF);
}

/** A text part: 7bit when it already fits the wire, else quoted-printable or base64, with CRLF line ends. */
function part(contentType: string, body: string): string {
  const content = body.replace(/\r?\n|\r/g, CRLF);
  if (SEVEN_BIT_BODY.test(content) && !LONG_LINE.test(content)) {
    return `Content-Type: ${contentType}; charset=utf-8${CRLF}Content-Transfer-Encoding: 7bit${CRLF}${CRLF}${content}`;
  }
  if (prefersBase64(content)) {
    const encoded = Buffer.from(content, "utf8")
      .toString("base64")
      .replace(/.{76}(?=.)/g, `$&${CRLF}`);
    return `Content-Type: ${contentType}; charset=utf-8${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${encoded}`;
  }
  return `Content-Type: ${contentType}; charset=utf-8${CRLF}Content-Transfer-Encoding: quoted-printable${CRLF}${CRLF}${qpWrap(qpEncode(content), LINE)}`;
}

/** The header block of a message (no Content-Type: the body decides it) and its SMTP envelope. */
export function messageHead(input: MimeInput): { lines: string[]; envelope: { from: string; to: string[] } } {
  const to = mailboxes(input.to);
  const cc = input.cc ? mailboxes(input.cc) : [];
  const lines = [header("From", mailbox(input.from.name, input.from.address)), header("To", addressList(to))];
  if (cc.length > 0) lines.push(header("Cc", addressList(cc)));
  if (input.replyTo) lines.push(header("Reply-To", addressList(mailboxes(input.replyTo))));
  lines.push(header("Subject", encodeText(oneLine(input.subject))));
  lines.push(header("Message-ID", angled(input.messageId)));
  if (input.inReplyTo) lines.push(header("In-Reply-To", angled(input.inReplyTo)));
  if (input.references && input.references.length > 0) lines.push(header("References", input.references.map(angled).join(" ")));
  for (const [key, value] of Object.entries(input.headers ?? {})) lines.push(header(key, encodeText(oneLine(value))));
  lines.push(`Date: ${(input.date ?? new Date()).toUTCString().replace(/GMT/, "+0000")}`, "MIME-Version: 1.0");
  // bcc: the envelope only. Every address once, however many fields name it.
  const envelopeTo = [...to, ...cc, ...(input.bcc ?? []).map((address) => ({ name: "", address }))].map((entry) => normalizeAddress(entry.address));
  return { lines, envelope: { from: normalizeAddress(input.from.address), to: [...new Map(envelopeTo.map((a) => [a.toLowerCase(), a])).values()] } };
}

/** The text content of a message: its Content-Type header line(s) and its body. */
export function contentEntity(input: Pick<MimeInput, "text" | "html">): { contentType: string[]; body: string } {
  if (input.html === null) {
    const [headers, body] = splitEntity(part("text/plain", input.text));
    return { contentType: headers, body };
  }
  const parts = [part("text/plain", input.text), part("text/html", input.html)];
  const boundary = multipartBoundary(parts);
  return {
    contentType: [`Content-Type: multipart/alternative;${CRLF} boundary="${boundary}"`],
    body: `${parts.map((p, i) => `${i > 0 ? CRLF : ""}--${boundary}${CRLF}${p}`).join("")}${CRLF}--${boundary}--`,
  };
}

/** A part as `part` writes it, as its header lines and its body. */
function splitEntity(entity: string): [string[], string] {
  const end = entity.indexOf(`${CRLF}${CRLF}`);
  return [entity.slice(0, end).split(CRLF), entity.slice(end + 4)];
}

/**
 * The RFC 5322 message of one email, in one buffer, and its SMTP envelope: a plain-text part, and with HTML a
 * multipart/alternative of both. Written by hand rather than by nodemailer's composer, which
 * streams each header and part separately and costs several times the whole rest of preparing
 * an email; quoted-printable is nodemailer's own. An email with attachments is built by
 * mime-attachments.ts and streamed instead.
 */
export function mimeMessage(input: MimeInput): { envelope: { from: string; to: string[] }; raw: Buffer } {
  const { lines, envelope } = messageHead(input);
  const { contentType, body } = contentEntity(input);
  return { envelope, raw: Buffer.from(`${[...lines, ...contentType].join(CRLF)}${CRLF}${CRLF}${body}${CRLF}`, "utf8") };
}
