import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { readCapturedMail } from "@/lib/mail/captured-mail";

export type RouteResult<T = any> = { status: number; body: T; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Calls an app route handler (e.g. the POST of app/api/sign-up/route.ts) as the server would. */
export async function callRoute(
  handler: (request: Request) => Promise<Response>,
  path: string,
  options: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<RouteResult> {
  // As the dashboard's own pages send it: same origin (the browser adds this; no page can forge it).
  const headers: Record<string, string> = { "sec-fetch-site": "same-origin", ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers["content-type"] ??= "application/json";
  const response = await handler(
    new Request(new URL(path, "http://localhost"), {
      method: options.method ?? "POST",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** The claims of a new session of a user, as signing in makes them. */
export async function sessionToken(userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, session_version: true } });
  return { sub: userId, email: user.email, sv: user.session_version, sid: randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600 };
}

/** A next-auth session cookie for a user, as signing in would set it (`claims` to reuse a session). */
export async function sessionCookie(userId: string, claims?: Awaited<ReturnType<typeof sessionToken>>): Promise<string> {
  const token = await encode({ token: claims ?? (await sessionToken(userId)), secret: env.authSecret });
  return `next-auth.session-token=${token}`;
}

/** A user with a password and no organization; verified unless said otherwise. */
export async function createUser(options: { verified?: boolean; password?: string; email?: string } = {}) {
  const email = options.email ?? `user-${randomUUID()}@example.test`;
  const password = options.password ?? "password123";
  const user = await db.user.create({
    data: { email, name: "Test User", password_hash: await hashPassword(password), email_verified_at: options.verified === false ? null : new Date() },
  });
  return { id: user.id, email, password };
}

/** The token of the newest link of a kind (`/verify-email/`, `/reset-password/`) mailed to `to`. */
export async function linkTokenMailedTo(to: string, kind: "verify-email" | "reset-password"): Promise<string> {
  const mails = await readCapturedMail(to);
  for (const mail of mails.reverse()) {
    const match = new RegExp(`/${kind}/([A-Za-z0-9_-]{32,})`).exec(mail.text ?? "");
    if (match) return match[1];
  }
  throw new Error(`no ${kind} link mailed to ${to}`);
}
