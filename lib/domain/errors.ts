import { errorStatus, type ErrorCode } from "@/lib/schemas/error-codes";

export type ValidationIssue = { path: string; message: string };

/** What services throw. The route wrapper turns it into the documented body and status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  /** Seconds to wait, sent as Retry-After (429s). */
  retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** A 429 whose Retry-After says when to come back. */
export function rateLimited(message: string, retryAfterSeconds: number, details?: unknown): AppError {
  const error = new AppError("RATE_LIMITED", message, details);
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error;
}

/** A 400 that names the offending field, for ids that do not belong to the caller's organization. */
export const invalidField = (path: string, message: string) => new AppError("VALIDATION_ERROR", message, [{ path, message }] satisfies ValidationIssue[]);

/** The specification's other error body, used only for pagination parameters. */
export class PaginationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaginationError";
  }
}
