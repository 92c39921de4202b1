import { randomUUID } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { open, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AppError, invalidField } from "@/lib/domain/errors";
import { MAX_IMPORT_BYTES } from "@/lib/schemas/contacts";

/** The decoded bytes of an uploaded CSV file, kept on disk while the import reads them. */
export type CsvUpload = {
  size: number;
  /** The file's bytes, in chunks. */
  read: () => AsyncIterable<Buffer>;
  /** Closes what is still reading the file (an import that stopped early) and removes it. */
  dispose: () => Promise<void>;
};

const BASE64 = /^[A-Za-z0-9+/\-_]*=*$/;
// Decoded a piece at a time, each a multiple of 4 characters so that it decodes on its own.
const PIECE = 64 * 1024;

/**
 * Decodes the base64 text of `file_content` as it arrives and writes the bytes to a temporary file,
 * so that memory holds a piece of the file at a time whatever its size. Not base64 is a 400; more
 * than 50 MB decoded is a 413, known as soon as the 50 MB are passed.
 */
export async function spoolBase64Csv(text: AsyncIterable<string>, directory = os.tmpdir()): Promise<CsvUpload> {
  // The process id in the name tells whose file it is when several servers (or test runs) share one temporary directory.
  const file = path.join(directory, `mailplatform-import-${process.pid}-${randomUUID()}.csv`);
  const handle = await open(file, "wx", 0o600);
  const readers = new Set<ReadStream>();
  const dispose = async () => {
    for (const reader of readers) reader.destroy();
    await rm(file, { force: true });
  };
  let size = 0;
  try {
    let pending = "";
    let padded = false;
    const write = async (base64: string) => {
      const bytes = Buffer.from(base64, "base64");
      size += bytes.length;
      if (size > MAX_IMPORT_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The CSV file is larger than 50 MB");
      await handle.write(bytes);
    };
    for await (const chunk of text) {
      const piece = /\s/.test(chunk) ? chunk.replace(/\s+/g, "") : chunk;
      if (!piece) continue;
      // Padding ends base64: nothing may follow it but more padding.
      if (!BASE64.test(piece) || (padded && /[^=]/.test(piece))) throw invalidField("file_content", "must be base64");
      padded ||= piece.includes("=");
      pending += piece;
      if (pending.length >= PIECE) {
        const whole = pending.length - (pending.length % 4);
        await write(pending.slice(0, whole));
        pending = pending.slice(whole);
      }
    }
    if (pending) await write(pending);
  } catch (error) {
    await handle.close();
    await dispose();
    throw error;
  }
  await handle.close();
  const read = () => {
    const reader = createReadStream(file, { highWaterMark: PIECE });
    readers.add(reader);
    reader.once("close", () => readers.delete(reader));
    return reader;
  };
  return { size, read, dispose };
}
