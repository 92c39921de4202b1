import { z } from "zod";
import { accountRoute } from "@/lib/api/account-route";
import { AppError } from "@/lib/domain/errors";
import { id } from "@/lib/schemas/common";
import { membershipRole } from "@/lib/services/accounts";
import { withOrganizationCookie } from "../organization-cookie";

const switchInput = z.object({ organization_id: id });

/** Switches the dashboard to another of the user's organizations. */
export const POST = accountRoute({ body: switchInput }, async ({ user, body }) => {
  const role = await membershipRole(user.id, body.organization_id);
  // Not a member looks exactly like no such organization.
  if (!role) throw new AppError("NOT_FOUND", "Organization not found");
  return withOrganizationCookie(Response.json({ current_organization_id: body.organization_id, role }), body.organization_id);
});
