import { readBodyBytes } from "@/lib/api/request-body";
import { AppError } from "@/lib/domain/errors";

/** A submission carries a few short fields; this is ample for twenty of them and refuses anything bulky. */
const MAX_SUBMISSION_BYTES = 16 * 1024;

/** Whether the caller wants JSON back (a script's fetch) rather than a page or a redirect (a plain HTML form). */
export function wantsJson(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  const accept = request.headers.get("accept") ?? "";
  return type.includes("application/json") || (accept.includes("application/json") && !accept.includes("text/html"));
}

/**
 * The submitted fields of a public form: JSON (an object), form-encoded (a plain HTML form) or
 * multipart (fetch with FormData, files ignored), read up to MAX_SUBMISSION_BYTES (413 past it);
 * anything unreadable is 400.
 */
export async function readSubmission(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(request, MAX_SUBMISSION_BYTES);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const invalid = () => new AppError("VALIDATION_ERROR", "The body must be JSON, form-encoded or multipart form data", [{ path: "", message: "unreadable" }]);
  if (type.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString("utf8"));
    } catch {
      throw invalid();
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid();
    return parsed as Record<string, unknown>;
  }
  if (type.includes("multipart/form-data")) {
    const form = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData().catch(() => {
      throw invalid();
    });
    const fields: Record<string, unknown> = {};
    form.forEach((value, key) => {
      if (typeof value === "string" && !(key in fields)) fields[key] = value;
    });
    return fields;
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(bytes.toString("utf8"))) if (!(key in fields)) fields[key] = value;
  return fields;
}
