import { AppError } from "./errors";
import type { Role } from "@/lib/generated/prisma/enums";

/** Who is calling: a signed-in user, or an API key acting as the member who created it. */
export type UserContext = {
  userId: string;
  userEmail: string;
  apiKeyId: string | null;
  /** Whether the user proved their address; unverified accounts cannot invite, accept or mint keys. */
  emailVerified?: boolean;
  /** The caller's address, for the audit log. */
  ip?: string | null;
};

/**
 * What an API key may do beyond its member's role: `sending_access` only sends (lib/api/key-permissions.ts),
 * and with a domain only from that domain. A session, or a key without a scope, is `full_access`.
 */
export type KeyScope = { permission: "full_access" | "sending_access"; domain: string | null };

/** Every service function takes this first and puts `organizationId` in every query. */
export type OrgContext = UserContext & {
  organizationId: string;
  role: Role;
  keyScope?: KeyScope;
};

export const canManageMembers = (ctx: OrgContext) => ctx.role === "owner" || ctx.role === "admin";

/**
 * 403 for a member undoing what the platform decided for safety (a circuit breaker's pause, a bounce
 * or complaint suppression): admins and owners decide that, members decide only what people did.
 */
export function overridingSafetyNeedsAdmin(what: string): AppError {
  return new AppError("FORBIDDEN", `${what} needs the admin or owner role: the platform did it to protect the organization's sending`);
}

/** Inviting, accepting an invitation and minting API keys need a proven address (no squatting). */
export function requireVerifiedEmail(ctx: UserContext) {
  if (ctx.emailVerified === false) {
    throw new AppError("EMAIL_NOT_VERIFIED", "Verify your email address first: open the link we mailed you, or send a new one from the dashboard");
  }
}
