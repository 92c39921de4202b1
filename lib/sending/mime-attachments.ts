import mimeFuncs from "nodemailer/lib/mime-funcs";
import { contentEntity, CRLF, header, messageHead, multipartBoundary, type MimeInput } from "./mime-message";
import type { AttachmentRef, StreamedMessage } from "./streamed-message";

export type MimeAttachment = { ref: AttachmentRef; filename: string; contentType: string; contentId: string | null };

/** Text, or where an attachment's base64 goes (streamed from the database when the message is sent). */
type Piece = string | AttachmentRef;
type Entity = { headers: string[]; pieces: Piece[] };

function attachmentEntity(attachment: MimeAttachment, inline: boolean): Entity {
  // buildHeaderValue reads `this`: called on its module. Names and types travel as MIME parameters (RFC 2231 for anything but ASCII), never as raw text.
  const headers = [
    header("Content-Type", mimeFuncs.buildHeaderValue({ value: attachment.contentType, params: { name: attachment.filename } })),
    "Content-Transfer-Encoding: base64",
    header("Content-Disposition", mimeFuncs.buildHeaderValue({ value: inline ? "inline" : "attachment", params: { filename: attachment.filename } })),
  ];
  if (attachment.contentId) headers.push(header("Content-ID", `<${attachment.contentId}>`));
  return { headers, pieces: [attachment.ref] };
}

const entityPieces = (entity: Entity): Piece[] => [`${entity.headers.join(CRLF)}${CRLF}${CRLF}`, ...entity.pieces];

/** A multipart entity of `children`; its boundary is drawn against all their text (base64 cannot hold "=_"). */
function multipart(subtype: "mixed" | "related", children: Entity[]): Entity {
  const texts = children.flatMap((child) => [...child.headers, ...child.pieces.filter((p): p is string => typeof p === "string")]);
  const boundary = multipartBoundary(texts);
  const pieces: Piece[] = [];
  children.forEach((child, i) => pieces.push(`${i > 0 ? CRLF : ""}--${boundary}${CRLF}`, ...entityPieces(child)));
  pieces.push(`${CRLF}--${boundary}--`);
  return { headers: [`Content-Type: multipart/${subtype};${CRLF} boundary="${boundary}"`], pieces };
}

/**
 * The message of an email with attachments, as text with the places of the attachments' bytes in
 * it: multipart/mixed around the content and the files; inline images (a `content_id`, with HTML)
 * in a multipart/related with the content, as mail clients expect for `cid:` references. The bytes
 * are streamed in when the message is sent (streamed-message.ts), so it is never built whole.
 */
export function mimeMessageWithAttachments(
  input: MimeInput,
  attachments: MimeAttachment[],
): { envelope: { from: string; to: string[] }; streamed: StreamedMessage } {
  const { lines, envelope } = messageHead(input);
  const content = contentEntity(input);
  let root: Entity = { headers: content.contentType, pieces: [content.body] };
  const inline = input.html !== null ? attachments.filter((a) => a.contentId) : [];
  const regular = attachments.filter((a) => !inline.includes(a));
  if (inline.length > 0) root = multipart("related", [root, ...inline.map((a) => attachmentEntity(a, true))]);
  if (regular.length > 0) root = multipart("mixed", [root, ...regular.map((a) => attachmentEntity(a, false))]);

  const segments: StreamedMessage["segments"] = [];
  let text = `${[...lines, ...root.headers].join(CRLF)}${CRLF}${CRLF}`;
  for (const piece of [...root.pieces, CRLF]) {
    if (typeof piece === "string") {
      text += piece;
      continue;
    }
    segments.push(Buffer.from(text, "utf8"), piece);
    text = "";
  }
  segments.push(Buffer.from(text, "utf8"));
  return { envelope, streamed: { segments } };
}
