import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { isWriteConflict } from "@/lib/db/write-conflict";
import { errorField, log } from "@/lib/log";
import { AppError, PaginationError } from "@/lib/domain/errors";

export { errorStatus, type ErrorCode } from "@/lib/schemas/error-codes";

/** Seconds a client is asked to wait before retrying while the database is unavailable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function errorResponse(error: unknown, headers?: HeadersInit): Response {
  if (error instanceof PaginationError) {
    return Response.json({ name: "validation_error", statusCode: 422, message: error.message }, { status: 422, headers });
  }
  if (error instanceof AppError) {
    const body: { error: string; code: string; details?: unknown } = { error: error.message, code: error.code };
    if (error.details !== undefined) body.details = error.details;
    const response = Response.json(body, { status: error.status, headers });
    if (error.retryAfterSeconds !== undefined) response.headers.set("retry-after", String(error.retryAfterSeconds));
    return response;
  }
  // Constraint races a service did not foresee still get a meaningful answer, never the driver's text.
  const prismaCode = (error as { code?: unknown } | null)?.code;
  if (prismaCode === "P2002") return errorResponse(new AppError("CONFLICT", "A record with these values already exists"), headers);
  if (prismaCode === "P2025") return errorResponse(new AppError("NOT_FOUND", "Record not found"), headers);
  // Lost a deadlock with other work even after the service's retries: sound request, bad timing.
  if (isWriteConflict(error)) {
    log.warn({ err: errorField(error) }, "write conflict after retries; answering 503");
    const retry = new Headers(headers);
    retry.set("retry-after", "1");
    return errorResponse(new AppError("SERVICE_UNAVAILABLE", "The request met a concurrent change; retry it"), retry);
  }
  // The database is down or restarting: nothing is wrong with the request, it is worth repeating.
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: errorField(error) }, "database unavailable; answering 503");
    const retry = new Headers(headers);
    retry.set("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return errorResponse(new AppError("SERVICE_UNAVAILABLE", "The service is temporarily unavailable; retry shortly"), retry);
  }
  log.error({ err: errorField(error) }, "unexpected error; answering 500");
  return Response.json({ error: "Internal server error", code: "INTERNAL_ERROR" }, { status: 500, headers });
}
