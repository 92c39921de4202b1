import type { z } from "zod";
import type { ErrorCode } from "@/lib/schemas/error-codes";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: `member` any member of the organization, `admin` owners and admins, `user` any
 * authenticated user even outside an organization (accepting an invitation).
 */
export type AuthLevel = "member" | "admin" | "user";

/**
 * What one /v1 operation promises, in pure zod: the server's operation adds its handler to it
 * (lib/api/operations), the OpenAPI document describes it, and the dashboard calls it with
 * `apiCall` (lib/client/api.ts), typed by the same response schema the tests check bodies against.
 */
export type Contract<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, A extends AuthLevel = AuthLevel> = {
  method: HttpMethod;
  /** The OpenAPI path, e.g. `/v1/broadcasts/{id}`; path parameters are read from the URL with it. */
  path: string;
  /** The OpenAPI `operationId` (an SDK's method name) when the one read from the method and path is not right (lib/openapi/operation-id.ts). */
  operationId?: string;
  summary: string;
  description?: string;
  tag: string;
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  /** Query parameters the paging parser reads, for the OpenAPI document. */
  pageQuery?: z.ZodObject;
  /** Also takes multipart/form-data with one `file` part, handed to the body schema as `{ filename, content }` (base64). */
  multipart?: true;
  /** Body size limit in bytes (default 5 MB). */
  maxBodyBytes?: number;
  /** What a 413 for a body past `maxBodyBytes` says, when the limit a caller knows is not the body's (an image's size in base64). */
  tooLargeMessage?: string;
  status?: 200 | 201 | 202;
  /** The success answer's media type when it is not JSON (a CSV export streams `text/csv`). */
  mediaType?: "text/csv";
  response: z.ZodType;
  /** Error codes the operation documents beyond the ones every operation has. */
  errors?: ErrorCode[];
};

/** Keeps the method and path as literal types: the dashboard names a contract by them (`Route`). */
export function defineContract<
  M extends HttpMethod,
  Path extends string,
  R extends z.ZodType,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends AuthLevel = "member",
>(contract: Contract<P, Q, B, A> & { method: M; path: Path; response: R }): Contract<P, Q, B, A> & { method: M; path: Path; response: R } {
  return contract;
}

/** `"GET /v1/segments/{id}"` for a contract of that method and path. */
export type RouteOf<C> = C extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
