import { NextRequest } from "next/server";
import type { z } from "zod";
import { sessionUser, type SessionUser } from "@/lib/auth/session-user";
import { clientAddress } from "./client-address";
import { AppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";
import { readBodyBytes, readJsonBody } from "./request-body";
import { requireBrowserJsonRequest } from "./request-guards";

// The largest body a dashboard form sends is a few hundred bytes.
const MAX_BODY_BYTES = 16 * 1024;

type Input<B> = { user: SessionUser; body: B; ip: string | null; request: Request };
type AnonymousInput<B> = Omit<Input<B>, "user"> & { user: SessionUser | null };

/** The route's contract (lib/contracts/account.ts) or, for the few without one, its body and status. */
type Options<S extends z.ZodType | undefined, R extends z.ZodType = z.ZodType> = { body?: S; status?: number; response?: R };
/** What a handler answers: what the contract's response schema describes (or a Response of its own). */
type Answer<R extends z.ZodType> = Promise<z.input<R> | Response>;
type BodyOf<S> = S extends z.ZodType ? z.output<S> : undefined;

function build<S extends z.ZodType | undefined>(needsSession: boolean, options: Options<S>, handler: (input: AnonymousInput<BodyOf<S>>) => Promise<unknown>) {
  return async (request: Request): Promise<Response> => {
    try {
      // JSON only, from the dashboard's own origin: a form another site posts changes nothing here.
      if (request.method !== "GET") requireBrowserJsonRequest(request);
      const user = await sessionUser(request.headers.get("cookie"));
      if (needsSession && !user) throw new AppError("UNAUTHORIZED", "Sign in to continue");
      let body: unknown;
      if (options.body) {
        const parsed = options.body.safeParse(await readJsonBody(request, MAX_BODY_BYTES));
        if (!parsed.success) {
          throw new AppError(
            "VALIDATION_ERROR",
            "Invalid request body",
            parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
          );
        }
        body = parsed.data;
      }
      const result = await handler({ user, body: body as BodyOf<S>, ip: clientAddress(request), request });
      if (result instanceof Response) return result;
      return Response.json(result, { status: options.status ?? 200, headers: { "cache-control": "no-store" } });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * The dashboard's own account endpoints (/api/account/*, /api/sign-up): not /v1, because an API
 * key has no business changing a password. JSON bodies only, validated by one zod schema.
 */
export const accountRoute = <S extends z.ZodType | undefined = undefined, R extends z.ZodType = z.ZodType>(
  options: Options<S, R>,
  handler: (input: Input<BodyOf<S>>) => Answer<R>,
) => build(true, options, handler as (input: AnonymousInput<BodyOf<S>>) => Promise<unknown>);

/** The same for the endpoints a signed-out visitor uses (sign-up, verify link, password reset). */
export const publicAccountRoute = <S extends z.ZodType | undefined = undefined, R extends z.ZodType = z.ZodType>(
  options: Options<S, R>,
  handler: (input: AnonymousInput<BodyOf<S>>) => Answer<R>,
) => build(false, options, handler);

/**
 * For a handler that reads the body itself (next-auth's): it gets the request with its body read
 * under the same limit, so it never holds more than that; past it, 413.
 */
export function boundedBody<C>(handler: (request: NextRequest, context: C) => Promise<Response>) {
  return async (request: NextRequest, context: C): Promise<Response> => {
    let body: Buffer;
    try {
      body = await readBodyBytes(request, MAX_BODY_BYTES);
    } catch (error) {
      return errorResponse(error);
    }
    return handler(new NextRequest(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) }), context);
  };
}
