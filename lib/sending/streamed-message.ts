import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type DKIM from "nodemailer/lib/dkim";
import MessageParser from "nodemailer/lib/dkim/message-parser";
import RelaxedBody from "nodemailer/lib/dkim/relaxed-body";
import dkimSign from "nodemailer/lib/dkim/sign";
import { attachmentBase64, type AttachmentRef } from "./attachment-parts";

export type { AttachmentRef } from "./attachment-parts";

/**
 * A message too large to hold: its text in pieces, with references to attachments in between. Plain
 * data (it crosses to the relay's thread as it is); `openStreamedMessage` turns it into bytes.
 */
export type StreamedMessage = { segments: (Uint8Array | AttachmentRef)[] };

const CRLF = "\r\n";

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function* segmentBytes(segments: StreamedMessage["segments"], skip = 0): AsyncGenerator<Buffer> {
  for (const segment of segments) {
    if (segment instanceof Uint8Array) {
      const bytes = asBuffer(segment);
      if (skip >= bytes.length) {
        skip -= bytes.length;
        continue;
      }
      yield bytes.subarray(skip);
      skip = 0;
    } else {
      yield* attachmentBase64(segment);
    }
  }
}

/** The header block of the message: all of its first segment up to the empty line (mime-attachments.ts puts it there). */
function headerBlock(message: StreamedMessage): Buffer {
  const first = message.segments[0];
  if (!(first instanceof Uint8Array)) throw new Error("A streamed message starts with its headers");
  const head = asBuffer(first);
  const end = head.indexOf(`${CRLF}${CRLF}`);
  if (end < 0) throw new Error("A streamed message's first segment holds its whole header block");
  return head.subarray(0, end + 4);
}

/**
 * The DKIM-Signature of a streamed message, read twice instead of held: once here for the body hash
 * (relaxed canonicalization, nodemailer's own), once more when it is sent. nodemailer's signer
 * keeps the whole message in memory (or in a cache file) between the two.
 */
async function signature(message: StreamedMessage, key: DKIM.SingleKeyOptions & DKIM.Options): Promise<string | null> {
  const head = headerBlock(message);
  const relaxed = new RelaxedBody({ hashAlgo: "sha256" });
  const hashed = new Promise<string>((resolve) => relaxed.once("hash", (digest) => resolve(String(digest))));
  relaxed.resume();
  await pipeline(Readable.from(segmentBytes(message.segments, head.length), { objectMode: false }), relaxed);
  const parser = new MessageParser() as MessageParser & { rawHeaders: Buffer; parseHeaders: () => MessageParser.Header[] };
  parser.rawHeaders = head;
  const field = dkimSign(parser.parseHeaders(), "sha256", await hashed, key);
  return field || null;
}

/** The message's bytes, signed with `dkim` when given; each call reads the attachments afresh (a retry, a second pass). */
export async function openStreamedMessage(message: StreamedMessage, dkim?: unknown): Promise<Readable> {
  const field = dkim ? await signature(message, dkim as DKIM.SingleKeyOptions & DKIM.Options) : null;
  async function* bytes() {
    if (field) yield Buffer.from(`${field}${CRLF}`, "utf8");
    yield* segmentBytes(message.segments);
  }
  return Readable.from(bytes(), { objectMode: false });
}
