import type { z } from "zod";
import type { OrgContext, UserContext } from "./context";
import type { ErrorCode } from "./errors";
import type { Spooled, SpooledField } from "./spooled-json-body";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: `member` any member of the organization, `admin` owners and admins, `user` any
 * authenticated user even outside an organization (accepting an invitation).
 */
export type AuthLevel = "member" | "admin" | "user";

type ContextFor<A extends AuthLevel> = A extends "user" ? UserContext : OrgContext;

export type OperationInput<P, Q, B, G, S> = { params: P; query: Q; body: B; page: G; spooled: S; request: Request };

/**
 * One /v1 operation, declared once: the route file serves it, the OpenAPI document describes it,
 * and the property-based test throws generated input at it.
 */
export type Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends AuthLevel = AuthLevel,
  G = unknown,
  S extends Spooled | undefined = Spooled | undefined,
> = {
  method: HttpMethod;
  /** The OpenAPI path, e.g. `/v1/broadcasts/{id}`; path parameters are read from the URL with it. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  /** Parses paging parameters; a thrown PaginationError becomes the 422 body. */
  page?: (search: URLSearchParams) => G;
  /** Query parameters the paging parser reads, for the OpenAPI document. */
  pageQuery?: z.ZodObject;
  /** Body size limit in bytes (default 5 MB). */
  maxBodyBytes?: number;
  /** A body field read as a stream rather than held as one string; the handler gets what its spool made. */
  spooledField?: SpooledField<NonNullable<S>>;
  status?: 200 | 201;
  response: z.ZodType;
  /** Error codes the operation documents beyond the ones every operation has. */
  errors?: ErrorCode[];
  handler: (ctx: ContextFor<A>, input: OperationInput<z.output<P>, z.output<Q>, z.output<B>, G, S>) => Promise<unknown>;
};

export function defineOperation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends AuthLevel = "member",
  G = undefined,
  S extends Spooled | undefined = undefined,
>(operation: Operation<P, Q, B, A, G, S>): Operation<P, Q, B, A, G, S> {
  return operation;
}

/** Any operation, whatever its schemas; what the route wrapper, the registry and the tests take. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Omit<Operation<any, any, any, AuthLevel, any, any>, "handler"> & { handler: (ctx: any, input: any) => Promise<unknown> };
