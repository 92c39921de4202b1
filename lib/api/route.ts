import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { setLogOrganization, withLogContext } from "@/lib/log";
import { admit } from "./admission";
import { assertKeyMayCall } from "./key-permissions";
import { AppError, type ValidationIssue } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";
import type { AnyOperation } from "./operation";
import { rateLimitHeaders, type Verdict } from "./rate-limit";
import { isMultipart, readMultipartFile } from "./multipart-body";
import { readJsonBody } from "./request-body";
import { readSpooledJsonBody, type Spooled } from "./spooled-json-body";

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;

function issues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError("VALIDATION_ERROR", `Invalid ${what}`, issues(result.error));
  return result.data;
}

/** Reads path parameters by matching the request path against the operation's OpenAPI path. */
export function matchPath(template: string, pathname: string): Record<string, string> | null {
  const want = template.split("/").filter(Boolean);
  const got = pathname.split("/").filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const name = /^\{(.+)\}$/.exec(want[i])?.[1];
    if (name) {
      try {
        params[name] = decodeURIComponent(got[i]);
      } catch {
        params[name] = got[i];
      }
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

/** A caller's own request id when it is a sane token (so logs can be matched across systems), else a new one. */
const requestIdOf = (request: Request) => {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
};

/**
 * Runs one operation for one request, with its request id on every log line written meanwhile and
 * on the answer (`X-Request-Id`), so a user's report of a failure can be found in the log.
 */
export async function execute(operation: AnyOperation, request: Request): Promise<Response> {
  const requestId = requestIdOf(request);
  const response = await withLogContext({ request_id: requestId }, () => executeOperation(operation, request));
  response.headers.set("x-request-id", requestId);
  return response;
}

/** Admission (credential, limits, CSRF), role, input validation, service call, errors. */
async function executeOperation(operation: AnyOperation, request: Request): Promise<Response> {
  let spooled: Spooled | undefined;
  let limits: Verdict[] = [];
  try {
    const url = new URL(request.url);
    const caller = await admit(request, (verdicts) => (limits = verdicts), { multipart: operation.multipart === true });
    let ctx: unknown = caller.user;
    if (caller.org) setLogOrganization(caller.org.organizationId);
    // Every operation, those for any signed-in user too: a sending key accepts no invitation either.
    if (caller.org) assertKeyMayCall(caller.org, operation);
    if (operation.auth !== "user") {
      if (!caller.org) throw new AppError("FORBIDDEN", "You are not a member of any organization");
      if (operation.auth === "admin" && caller.org.role === "member") {
        throw new AppError("FORBIDDEN", "This action needs the admin or owner role");
      }
      ctx = caller.org;
    }
    const rawParams = matchPath(operation.path, url.pathname) ?? {};
    const params = operation.params ? validate(operation.params, rawParams, "path parameters") : rawParams;
    const page = operation.page ? operation.page(url.searchParams) : undefined;
    const query = operation.query ? validate(operation.query, Object.fromEntries(url.searchParams), "query parameters") : {};
    let body: unknown;
    if (operation.body) {
      const limit = operation.maxBodyBytes ?? DEFAULT_MAX_BODY;
      let raw: unknown;
      try {
        if (operation.multipart && isMultipart(request)) raw = await readMultipartFile(request, limit);
        else if (operation.spooledField) ({ body: raw, spooled } = await readSpooledJsonBody(request, limit, operation.spooledField));
        else raw = await readJsonBody(request, limit);
      } catch (error) {
        const message = operation.tooLargeMessage;
        if (message && error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") throw new AppError("PAYLOAD_TOO_LARGE", message);
        throw error;
      }
      body = validate(operation.body, raw, "request body");
    }
    const result = await operation.handler(ctx as never, { params, query, body, page, spooled, request });
    const response = result instanceof Response ? result : Response.json(result, { status: operation.status ?? 200 });
    for (const [name, value] of Object.entries(rateLimitHeaders(limits))) response.headers.set(name, value);
    return response;
  } catch (error) {
    return errorResponse(error, rateLimitHeaders(limits));
  } finally {
    await spooled?.dispose();
  }
}

/** What a route file exports for a method: `export const PUT = route(updateBroadcast)`. */
export function route(operation: AnyOperation): (request: Request) => Promise<Response> {
  return (request) => execute(operation, request);
}
