import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { z } from "zod";
import { operations } from "@/lib/api/operations";
import { execute, matchPath } from "@/lib/api/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Role } from "@/lib/generated/prisma/enums";
import { createOrganizationWithOwner } from "@/lib/services/accounts";
import { issueApiKey } from "@/lib/services/api-keys";

export type ApiResult<T = any> = { status: number; body: T; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

type RequestOptions = {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  stream?: ReadableStream<Uint8Array>;
  /** A multipart/form-data body (the Request sets its Content-Type with the boundary). */
  form?: FormData;
  headers?: Record<string, string>;
};

/** Sends one request through the same operation table and wrapper the route files use. */
export async function request(method: string, pathAndQuery: string, options: RequestOptions = {}): Promise<ApiResult> {
  const url = new URL(pathAndQuery, "http://localhost");
  const operation = operations.find((op) => op.method === method && matchPath(op.path, url.pathname));
  if (!operation) throw new Error(`No operation serves ${method} ${url.pathname}`);
  const headers: Record<string, string> = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  // A signed-in browser on the dashboard's own pages sends its origin with every write.
  if (headers.cookie !== undefined && !("origin" in headers)) headers.origin = new URL(env.appUrl).origin;
  let body: string | ReadableStream<Uint8Array> | FormData | undefined = options.stream ?? options.rawBody ?? options.form;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  // Bodies are JSON unless a test says otherwise (a Request would label a string body text/plain).
  if (body !== undefined && !options.form && !("content-type" in headers)) headers["content-type"] = "application/json";
  const init: RequestInit & { duplex?: "half" } = { method, headers, body, duplex: options.stream ? "half" : undefined };
  const response = await execute(operation, new Request(url, init));
  const text = await response.text();
  const result = { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  assertDocumentedShape(operation, method, url.pathname, result);
  return result;
}

/**
 * Every successful JSON answer a test sees must be what the operation's response schema (and so
 * the OpenAPI document) promises: the serializers and JSON-building SQL are the real wire format,
 * and this is what ties them to the contract.
 */
function assertDocumentedShape(operation: (typeof operations)[number], method: string, path: string, result: ApiResult) {
  if (result.status < 200 || result.status >= 300 || result.body === null) return;
  if (!result.headers.get("content-type")?.startsWith("application/json")) return;
  const parsed = operation.response.safeParse(result.body);
  if (!parsed.success) {
    throw new Error(`${method} ${path} answered ${result.status} with a body its response schema refuses:\n${z.prettifyError(parsed.error)}`);
  }
}

/** A client bound to one bearer token. */
export function client(token: string | null) {
  return {
    get: (path: string) => request("GET", path, { token }),
    post: (path: string, body?: unknown) => request("POST", path, { token, body }),
    put: (path: string, body?: unknown) => request("PUT", path, { token, body }),
    patch: (path: string, body?: unknown) => request("PATCH", path, { token, body }),
    delete: (path: string) => request("DELETE", path, { token }),
  };
}

export type TestMember = { userId: string; email: string; token: string; api: ReturnType<typeof client>; role: Role };
export type TestOrg = { organizationId: string; owner: TestMember; addMember: (role: Role) => Promise<TestMember> };

/** A fresh organization with an owner and an API key; every test works in its own organizations. */
export async function createTestOrg(name = "Test org"): Promise<TestOrg> {
  const email = `owner-${randomUUID()}@example.test`;
  const { organization, user } = await createOrganizationWithOwner({ name, email, password: "password123", userName: "Owner Person" });
  const { token } = await issueApiKey(organization.id, user.id, "test");
  const owner: TestMember = { userId: user.id, email, token, api: client(token), role: "owner" };
  return {
    organizationId: organization.id,
    owner,
    addMember: async (role: Role) => {
      const memberEmail = `${role}-${randomUUID()}@example.test`;
      const member = await db.user.create({ data: { email: memberEmail, name: `${role} person`, password_hash: "x", email_verified_at: new Date() } });
      await db.membership.create({ data: { organization_id: organization.id, user_id: member.id, role } });
      const key = await issueApiKey(organization.id, member.id, "test");
      return { userId: member.id, email: memberEmail, token: key.token, api: client(key.token), role };
    },
  };
}

/** Asserts the documented error body shape and returns it. */
export function expectError(result: ApiResult, status: number, code?: string) {
  if (result.status !== status || typeof result.body?.error !== "string" || (code && result.body.code !== code)) {
    throw new Error(`expected ${status}${code ? ` ${code}` : ""}, got ${result.status} ${JSON.stringify(result.body)}`);
  }
  return result.body as { error: string; code: string; details?: { path: string; message: string }[] };
}

export const randomId = () => randomUUID();

/** The Cookie header of a dashboard session signed in as `user`, as the browser would send it. */
export async function sessionCookie(user: { userId: string; email: string }): Promise<string> {
  const token = await encode({ token: { sub: user.userId, email: user.email }, secret: env.authSecret });
  return `next-auth.session-token=${token}`;
}
