import { mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { spoolBase64Csv } from "./csv-upload";

const directory = mkdtempSync(path.join(os.tmpdir(), "csv-upload-test-"));

async function* pieces(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function bytesOf(upload: { read: () => AsyncIterable<Buffer> }) {
  const chunks: Buffer[] = [];
  for await (const chunk of upload.read()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("spoolBase64Csv", () => {
  it("decodes base64 arriving in pieces of any length, with line breaks or the URL-safe alphabet, and removes its file", async () => {
    const original = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256));
    const wrapped = original.toString("base64").replace(/.{76}/g, "$&\r\n");
    for (const [text, size] of [
      [wrapped, 1],
      [wrapped, 333],
      [original.toString("base64url"), 65_537],
      [original.toString("base64"), 1_000_000],
    ] as const) {
      const upload = await spoolBase64Csv(pieces(text, size), directory);
      expect(upload.size).toBe(original.length);
      expect((await bytesOf(upload)).equals(original)).toBe(true);
      await upload.dispose();
    }
    expect(readdirSync(directory)).toEqual([]);
  });

  it("refuses what is not base64 with 400 on file_content, leaving no file behind", async () => {
    for (const text of ["QUJD!", "QUI=QUJD", "QUJD\u0000", "QU=\nJD"]) {
      const error = await spoolBase64Csv(pieces(text, 2), directory).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, text).toBeInstanceOf(AppError);
      expect((error as AppError).details).toEqual([expect.objectContaining({ path: "file_content" })]);
    }
    expect(readdirSync(directory)).toEqual([]);
  });

  it("reads an empty text as an empty file", async () => {
    const upload = await spoolBase64Csv(pieces("", 1), directory);
    expect(upload.size).toBe(0);
    expect(await bytesOf(upload)).toHaveLength(0);
    await upload.dispose();
  });
});
