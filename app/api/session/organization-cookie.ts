import { ORGANIZATION_COOKIE } from "@/lib/auth/session-user";
import { env } from "@/lib/env";

/** Sets the organization the dashboard works in; /v1 reads it with the session cookie. */
export function withOrganizationCookie(response: Response, organizationId: string): Response {
  const attributes = [
    `${ORGANIZATION_COOKIE}=${encodeURIComponent(organizationId)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${60 * 60 * 24 * 365}`,
    ...(env.appUrl.startsWith("https:") ? ["Secure"] : []),
  ];
  response.headers.append("Set-Cookie", attributes.join("; "));
  return response;
}
