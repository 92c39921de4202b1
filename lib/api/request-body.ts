import { AppError } from "@/lib/domain/errors";

const tooLarge = (limit: number) => new AppError("PAYLOAD_TOO_LARGE", `Request body is larger than ${limit} bytes`);

/**
 * A request's body, at most `limit` bytes: a declared length past it is refused before anything is
 * read, and a body that passes it while arriving stops being read there (413). `request.text()`
 * read a whole body first: the dashboard's routes took 10 MB bodies into memory to refuse them at 16 KB.
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return Buffer.alloc(0);
  // With a declared length the body is read straight into one buffer: a CSV import of 50 MB would
  // otherwise sit in memory three times (chunks, their concatenation, the decoded text).
  let buffer = Buffer.allocUnsafe(declared > 0 ? declared : Math.min(limit, 64 * 1024));
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    if (size + value.byteLength > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(buffer.length * 2, size + value.byteLength)));
      buffer.copy(grown, 0, 0, size);
      buffer = grown;
    }
    buffer.set(value, size);
    size += value.byteLength;
  }
  return buffer.subarray(0, size);
}

/** A JSON body of at most `limit` bytes (413 past it); an empty body is `{}`; anything else is 400. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = (await readBodyBytes(request, limit)).toString("utf8");
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("VALIDATION_ERROR", "Request body must be valid JSON", [{ path: "", message: "invalid JSON" }]);
  }
}
