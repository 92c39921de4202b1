import { AppError } from "@/lib/domain/errors";
import { selectedOrganizationId, sessionUser } from "@/lib/auth/session-user";
import { db } from "@/lib/db";
import { authenticateApiKey } from "@/lib/services/api-keys";
import { clientAddress } from "./client-address";
import type { OrgContext, UserContext } from "@/lib/domain/context";

const unauthorized = () => new AppError("UNAUTHORIZED", "Missing or invalid credentials");

/**
 * Who is calling. A Bearer API key wins; otherwise the dashboard's session cookie (whose session
 * version must still be the user's), with the organization chosen in the switcher (falling back
 * to the user's first organization).
 */
export async function resolveCaller(request: Request): Promise<{ user: UserContext; org: OrgContext | null }> {
  const ip = clientAddress(request);
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const ctx = match ? await authenticateApiKey(match[1]) : null;
    if (!ctx) throw unauthorized();
    const withIp = { ...ctx, ip };
    return { user: withIp, org: withIp };
  }
  const user = await sessionUser(request.headers.get("cookie"));
  if (!user) throw unauthorized();
  const userCtx: UserContext = { userId: user.id, userEmail: user.email, apiKeyId: null, emailVerified: user.emailVerified, ip };
  const wanted = selectedOrganizationId(request);
  const memberships = await db.membership.findMany({
    where: { user_id: user.id },
    orderBy: { created_at: "asc" },
    select: { organization_id: true, role: true },
  });
  const membership = memberships.find((m) => m.organization_id === wanted) ?? memberships[0];
  return { user: userCtx, org: membership ? { ...userCtx, organizationId: membership.organization_id, role: membership.role } : null };
}
