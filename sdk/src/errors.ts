import type { components } from "./generated/schema";

type ErrorBody = components["schemas"]["Error"];

/** An error answer of the API, thrown by the convenience methods (`client.GET` and friends answer `{ error }` instead). */
export class MailplatformError extends Error {
  readonly status: number;
  /** The API's code, e.g. `NOT_FOUND`, `VALIDATION_ERROR`, `RATE_LIMITED`; `UNKNOWN` for an answer without the error body. */
  readonly code: ErrorBody["code"] | "UNKNOWN";
  /** For VALIDATION_ERROR: `[{ path, message }]`. */
  readonly details: unknown;
  /** The `X-Request-Id` of the answer, to find the request in the server's log. */
  readonly requestId: string | null;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body : null;
    super(error?.error ?? `HTTP ${response.status}`);
    this.name = "MailplatformError";
    this.status = response.status;
    this.code = error?.code ?? "UNKNOWN";
    this.details = error?.details;
    this.requestId = response.headers.get("x-request-id");
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === "object" && body !== null && typeof (body as ErrorBody).error === "string" && typeof (body as ErrorBody).code === "string";
}

/** The data of a successful answer, or the answer's error thrown. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw new MailplatformError(result.response, result.error);
  return result.data as T;
}
