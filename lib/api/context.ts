import type { Role } from "@/lib/generated/prisma/enums";

/** Who is calling: a signed-in user, or an API key acting as the member who created it. */
export type UserContext = {
  userId: string;
  userEmail: string;
  apiKeyId: string | null;
};

/** Every service function takes this first and puts `organizationId` in every query. */
export type OrgContext = UserContext & {
  organizationId: string;
  role: Role;
};

export const canManageMembers = (ctx: OrgContext) => ctx.role === "owner" || ctx.role === "admin";
