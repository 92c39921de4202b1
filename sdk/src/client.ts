import createClient from "openapi-fetch";
import type { paths } from "./generated/schema";
import { idempotencyKeys } from "./idempotency";
import { paginate, type CursorListPath, type ListParams } from "./paginate";
import { resources } from "./resources";
import { retryingFetch, type RetryOptions } from "./retry";

export type MailplatformOptions = {
  /** An API key (Settings → API keys), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Where the platform runs, e.g. `https://mail.example.com` (the paths start with /v1). */
  baseUrl: string;
  /** Retries of 429, 503 and (for requests safe to repeat) other 5xx answers and network failures; `false` for none. */
  retry?: RetryOptions | false;
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
};

/**
 * A client of the /v1 API. `client.GET("/v1/templates/{id}", { params: { path: { id } } })` and the
 * other methods of openapi-fetch are typed by the OpenAPI document and answer `{ data, error, response }`;
 * `client.templates.get(id)` and the other resource methods answer the record or throw
 * MailplatformError; `client.paginate("/v1/topics")` iterates any cursor list. Sends carry an
 * `Idempotency-Key`, and refused or failed requests are retried as `retry` says.
 */
export function createMailplatform(options: MailplatformOptions) {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
    fetch: options.retry === false ? send : retryingFetch(send, options.retry),
  });
  client.use(idempotencyKeys);
  return Object.assign(client, {
    paginate: <P extends CursorListPath>(path: P, params?: ListParams<P>) => paginate(client, path, params),
    ...resources(client),
  });
}

export type Mailplatform = ReturnType<typeof createMailplatform>;
