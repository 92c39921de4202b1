import type { z } from "zod";
import type { HttpMethod } from "@/lib/contracts/contract";
import type { ContractOf, Route } from "@/lib/contracts";

export type ApiErrorDetail = { path: string; message: string };

/** A failed /v1 call, whichever of the two error bodies the server answered with. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ApiErrorDetail[];

  constructor(status: number, code: string, message: string, details: ApiErrorDetail[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export type ApiFetchOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** Empty, null and undefined values are left out of the query string. */
  query?: Record<string, QueryValue>;
  headers?: HeadersInit;
  signal?: AbortSignal;
};

/** `/api-keys` and `/v1/api-keys` name the same endpoint; `/api/…` routes are taken as they are. */
export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const base = path.startsWith("/v1/") || path.startsWith("/api/") ? path : `/v1${path.startsWith("/") ? "" : "/"}${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${base}?${qs}` : base;
}

function detailsOf(raw: unknown): ApiErrorDetail[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((d): d is { path: unknown; message: unknown } => typeof d === "object" && d !== null)
    .map((d) => ({ path: String(d.path ?? ""), message: String(d.message ?? "") }));
}

export async function errorFrom(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (body && typeof body.error === "string") {
    return new ApiError(response.status, typeof body.code === "string" ? body.code : "ERROR", body.error, detailsOf(body.details));
  }
  // The pagination error body: { name, statusCode, message }.
  if (body && typeof body.message === "string") {
    return new ApiError(response.status, typeof body.name === "string" ? body.name : "ERROR", body.message);
  }
  return new ApiError(response.status, "ERROR", response.statusText || `Request failed with status ${response.status}`);
}

/**
 * Calls the /v1 API as the signed-in user (session cookie; the organization comes from the
 * `mp_org` cookie the switcher sets). Throws ApiError on any non-2xx answer or network failure.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = "GET", body, query, headers, signal } = options;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(0, "NETWORK_ERROR", "Could not reach the server. Check your connection and try again.");
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;

export type CallInput<C> = {
  /** The path's parameters: `{ id }` for `/v1/segments/{id}`. */
  params?: C extends { params?: infer P } ? InputOf<P> : never;
  /** Empty, null and undefined values are left out of the query string. */
  query?: Record<string, QueryValue>;
  body?: C extends { body?: infer B } ? InputOf<B> : never;
  signal?: AbortSignal;
};

/** What the route's contract answers, as its response schema describes it. */
export type ResponseOf<R extends Route> = ContractOf<R> extends { response: infer S extends z.ZodType } ? z.output<S> : never;

/** The contract's path with its parameters filled in: `/v1/segments/{id}` and `{ id: "…" }` give `/v1/segments/…`. */
function contractPath(path: string, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === "") throw new Error(`${path}: the parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Calls an operation by its route, `"PUT /v1/segments/{id}"`: the route must be one a contract in
 * lib/contracts declares, the params and body are typed by that contract's schemas, and the answer
 * by its response schema (the one the server's tests check every 2xx body against). Only the
 * contracts' types reach the browser, not their zod schemas. Throws ApiError like apiFetch.
 */
export function apiCall<R extends Route>(route: R, input: CallInput<ContractOf<R>> = {}): Promise<ResponseOf<R>> {
  const space = route.indexOf(" ");
  return apiFetch<ResponseOf<R>>(contractPath(route.slice(space + 1), input.params), {
    method: route.slice(0, space) as HttpMethod,
    body: input.body,
    query: input.query,
    signal: input.signal,
  });
}

/** A message fit for a toast or an error state, whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === "VALIDATION_ERROR" && error.details.length) {
      const first = error.details[0];
      return first.path ? `${first.path}: ${first.message}` : first.message;
    }
    return error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong. Please try again.";
}

export type { ListEnvelope } from "@/lib/schemas/pagination";
