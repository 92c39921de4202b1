import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Assembler from "stream-json/assembler.js";
import parser, { type Token } from "stream-json/parser.js";
import { AppError } from "@/lib/domain/errors";

/** What a spool made of a field's text; removed once the request is answered. */
export type Spooled = { dispose: () => Promise<void> };

/**
 * A string field of a JSON body that can be too large to hold as one string: a top-level name
 * (`file_content`), or a dotted path where `*` stands for any array index (`attachments.*.content`).
 */
export type SpooledField<S extends Spooled = Spooled> = {
  name: string;
  /**
   * Consumes one occurrence's text, chunk by chunk, as the body arrives; `at` is its path
   * (`attachments.1.content`) and `into` what the earlier occurrences made. A top-level field given
   * twice counts once (the last, as with JSON.parse); a path with `*` gathers every occurrence.
   */
  spool(text: AsyncIterable<string>, at: string, into: S | undefined): Promise<S>;
};

/** Whether the path of a string value (its parents' keys and indexes, then its own key) is the field's. */
function matches(pattern: string[], path: (string | number)[]): boolean {
  return pattern.length === path.length && pattern.every((part, i) => (part === "*" ? typeof path[i] === "number" : part === path[i]));
}

/** The path of the value the assembler is about to receive. */
function valuePath(assembler: Assembler): (string | number)[] {
  const own = Array.isArray(assembler.current) ? (assembler.current as unknown[]).length : assembler.key;
  return [...(assembler.path as (string | number)[]), own as string | number];
}

const invalidJson = () => new AppError("VALIDATION_ERROR", "Request body must be valid JSON", [{ path: "", message: "invalid JSON" }]);

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

async function* limited(body: ReadableStream<Uint8Array>, limit: number, seen: { text: boolean }) {
  let size = 0;
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) throw new AppError("PAYLOAD_TOO_LARGE", `Request body is larger than ${limit} bytes`);
      seen.text ||= read.value.some((byte) => !WHITESPACE.has(byte));
      yield read.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Parses a JSON body as it streams in, handing one field's text to its spool instead of building the
 * string: a 50 MB CSV import arrives as about 67 MB of base64, which would otherwise be held as the
 * raw body, its text and the parsed string at once. The other fields are assembled as usual; the
 * spooled one is left as "" so the body's schema still checks that it was given, and as a string.
 */
export async function readSpooledJsonBody<S extends Spooled>(
  request: Request,
  limit: number,
  field: SpooledField<S>,
): Promise<{ body: unknown; spooled: S | undefined }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new AppError("PAYLOAD_TOO_LARGE", `Request body is larger than ${limit} bytes`);
  if (!request.body) return { body: {}, spooled: undefined };

  const tokens = parser.asStream({ packStrings: false, streamStrings: true, packKeys: true, streamKeys: false, streamNumbers: false });
  // An empty body is read as {}, as readBody does; the parser would call it invalid.
  const seen = { text: false };
  const feeding = pipeline(Readable.from(limited(request.body, limit, seen)), tokens).catch(() => undefined);
  const iterator: AsyncIterator<Token> = tokens[Symbol.asyncIterator]();
  const next = async () => {
    try {
      return await iterator.next();
    } catch (error) {
      throw error instanceof AppError ? error : invalidJson();
    }
  };

  const assembler = new Assembler();
  const pattern = field.name.split(".");
  const gathers = pattern.includes("*");
  let spooled: S | undefined;
  try {
    let text = "";
    for (let step = await next(); !step.done; step = await next()) {
      const token = step.value;
      const path = token.name === "startString" && assembler.depth >= 1 ? valuePath(assembler) : null;
      if (path && matches(pattern, path)) {
        let ended = false;
        const chunks = async function* () {
          for (let inner = await next(); !inner.done; inner = await next()) {
            if (inner.value.name === "endString") {
              ended = true;
              return;
            }
            if (inner.value.name === "stringChunk") yield inner.value.value;
          }
          throw invalidJson();
        };
        // A field given twice: the last one counts, as with JSON.parse.
        if (!gathers) {
          await spooled?.dispose();
          spooled = undefined;
        }
        spooled = await field.spool(chunks(), path.join("."), spooled);
        if (!ended) throw new Error(`the spool of ${field.name} stopped before the end of its text`);
        assembler.consume({ name: "stringValue", value: "" });
      } else if (token.name === "startString") text = "";
      else if (token.name === "stringChunk") text += token.value;
      else if (token.name === "endString") assembler.consume({ name: "stringValue", value: text });
      else assembler.consume(token);
    }
    if (!assembler.done) throw invalidJson();
    await feeding;
    return { body: assembler.current ?? {}, spooled };
  } catch (error) {
    tokens.destroy();
    await spooled?.dispose();
    if (!seen.text && !(error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE")) return { body: {}, spooled: undefined };
    throw error;
  }
}
