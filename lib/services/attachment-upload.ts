import { createHash, randomUUID } from "node:crypto";
import { open, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AppError, invalidField } from "@/lib/domain/errors";
import { sendingLimits } from "@/lib/schemas/send-email";

/**
 * One attachment of a request, decoded and kept in a temporary file until its email is written:
 * memory holds a piece of it at a time, whatever its size, from the request's body to the
 * database (POST /v1/emails) or from the SMTP client's message (lib/submission).
 */
export type AttachmentUpload = {
  size: number;
  /** Of the decoded bytes: the idempotency of a request covers the files, not only their names. */
  sha256: string;
  /** The bytes, in pieces of at most `pieceBytes`. */
  read: (pieceBytes: number) => AsyncIterable<Buffer>;
  dispose: () => Promise<void>;
};

/** The decoded bytes all attachments of one email may take together; past it, 413. */
export class AttachmentBudget {
  used = 0;
  constructor(readonly limit: number = sendingLimits.attachmentBytes) {}

  take(bytes: number) {
    this.used += bytes;
    if (this.used > this.limit) {
      throw new AppError("PAYLOAD_TOO_LARGE", `Attachments are larger than ${this.limit / 1024 / 1024} MB in all (decoded)`);
    }
  }
}

/** Writes `chunks` to a temporary file, counting them against `budget` as they come. */
export async function spoolBytes(chunks: AsyncIterable<Buffer>, budget: AttachmentBudget): Promise<AttachmentUpload> {
  // The process id in the name tells whose file it is when several servers share one temporary directory.
  const file = path.join(os.tmpdir(), `mailplatform-attachment-${process.pid}-${randomUUID()}`);
  const handle = await open(file, "wx", 0o600);
  const hash = createHash("sha256");
  let size = 0;
  try {
    for await (const chunk of chunks) {
      budget.take(chunk.length);
      size += chunk.length;
      hash.update(chunk);
      await handle.write(chunk);
    }
  } catch (error) {
    await handle.close();
    await rm(file, { force: true });
    throw error;
  }
  await handle.close();
  return {
    size,
    sha256: hash.digest("hex"),
    read: (pieceBytes) => readPieces(file, pieceBytes),
    dispose: () => rm(file, { force: true }),
  };
}

async function* readPieces(file: string, pieceBytes: number): AsyncIterable<Buffer> {
  const handle = await open(file, "r");
  try {
    for (;;) {
      const piece = Buffer.allocUnsafe(pieceBytes);
      let filled = 0;
      while (filled < pieceBytes) {
        const { bytesRead } = await handle.read(piece, filled, pieceBytes - filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled > 0) yield filled === pieceBytes ? piece : piece.subarray(0, filled);
      if (filled < pieceBytes) return;
    }
  } finally {
    await handle.close();
  }
}

const BASE64 = /^[A-Za-z0-9+/\-_]*=*$/;
// Decoded a piece at a time, each a multiple of 4 characters so that it decodes on its own; small
// enough that the text held with the next chunk stays a young string (under 128 KB), collected at once.
const PIECE = 32 * 1024;

/** Base64 text as it streams in, decoded; anything else is a 400 naming `field`. */
async function* decodeBase64(text: AsyncIterable<string>, field: string): AsyncIterable<Buffer> {
  let pending = "";
  let padded = false;
  for await (const chunk of text) {
    const piece = /\s/.test(chunk) ? chunk.replace(/\s+/g, "") : chunk;
    if (!piece) continue;
    // Padding ends base64: nothing may follow it but more padding.
    if (!BASE64.test(piece) || (padded && /[^=]/.test(piece))) throw invalidField(field, "must be base64");
    padded ||= piece.includes("=");
    pending += piece;
    if (pending.length >= PIECE) {
      const whole = pending.length - (pending.length % 4);
      yield Buffer.from(pending.slice(0, whole), "base64");
      pending = pending.slice(whole);
    }
  }
  if (pending) yield Buffer.from(pending, "base64");
}

/**
 * The attachments of one `POST /v1/emails`, spooled as the body streams in (`attachments.*.content`,
 * lib/api/spooled-json-body.ts): by index, with one budget for all of them, so the 413 comes as
 * soon as the 10 MB are passed rather than after the whole body was read.
 */
export class AttachmentSpool {
  private readonly files = new Map<number, AttachmentUpload>();
  readonly budget = new AttachmentBudget();

  get(index: number): AttachmentUpload | undefined {
    return this.files.get(index);
  }

  async add(index: number, upload: AttachmentUpload) {
    const before = this.files.get(index);
    // The same content given twice in one object: the last counts, as with JSON.parse.
    if (before) {
      this.budget.used -= before.size;
      await before.dispose();
    }
    this.files.set(index, upload);
  }

  async dispose() {
    await Promise.all([...this.files.values()].map((file) => file.dispose()));
    this.files.clear();
  }
}

/** The spool of `attachments.*.content` for POST /v1/emails. */
export async function spoolAttachmentContent(text: AsyncIterable<string>, at: string, into: AttachmentSpool | undefined): Promise<AttachmentSpool> {
  const spool = into ?? new AttachmentSpool();
  try {
    const upload = await spoolBytes(decodeBase64(text, at), spool.budget);
    await spool.add(Number(at.split(".")[1]), upload);
  } catch (error) {
    // What the request spooled before is removed with it (the body reader drops only a finished spool).
    if (!into) await spool.dispose();
    throw error;
  }
  return spool;
}
