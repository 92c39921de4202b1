import type { z } from "zod";
import type { OrgContext, UserContext } from "@/lib/domain/context";
import type { AuthLevel, Contract } from "@/lib/contracts/contract";
import type { Spooled, SpooledField } from "./spooled-json-body";

export type { AuthLevel, HttpMethod } from "@/lib/contracts/contract";

type ContextFor<A extends AuthLevel> = A extends "user" ? UserContext : OrgContext;

export type OperationInput<P, Q, B, G, S> = { params: P; query: Q; body: B; page: G; spooled: S; request: Request };

/**
 * One /v1 operation, declared once: its contract (lib/contracts) with the server's parts beside it,
 * the paging parser, the spooled field and the handler. The route file serves it, the OpenAPI
 * document describes it, and the property-based test throws generated input at it.
 */
export type Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends AuthLevel = AuthLevel,
  G = unknown,
  S extends Spooled | undefined = Spooled | undefined,
> = Contract<P, Q, B, A> & {
  /** Parses paging parameters; a thrown PaginationError becomes the 422 body. */
  page?: (search: URLSearchParams) => G;
  /** A body field read as a stream rather than held as one string; the handler gets what its spool made. */
  spooledField?: SpooledField<NonNullable<S>>;
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
