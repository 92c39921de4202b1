import { AppError, invalidField } from "@/lib/domain/errors";
import { readBodyBytes } from "./request-body";

export const isMultipart = (request: Request) => /^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "");

/**
 * The one `file` part of a multipart/form-data body (an upload from a browser's file picker or
 * `curl -F file=@logo.png`), as the JSON form of the same operation has it: `{ filename, content }`
 * with the bytes in base64, so one schema validates both. The body is read to `limit` bytes at most
 * (413 past it) before it is parsed.
 */
export async function readMultipartFile(request: Request, limit: number): Promise<{ filename: string; content: string }> {
  const bytes = await readBodyBytes(request, limit);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The multipart body could not be read", [{ path: "", message: "malformed multipart/form-data" }]);
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw invalidField("file", "a part named file, with a file in it, is required");
  return { filename: file.name, content: Buffer.from(await file.arrayBuffer()).toString("base64") };
}
