import { accountRoute } from "@/lib/api/account-route";
import { createOrganizationContract } from "@/lib/contracts/account";
import { createOrganizationForUser } from "@/lib/services/accounts";
import { withOrganizationCookie } from "../organization-cookie";

/** Creates an organization owned by the signed-in user and switches the dashboard to it. */
export const POST = accountRoute(createOrganizationContract, async ({ user, body, ip }) => {
  const organization = await createOrganizationForUser(user.id, body.name, ip);
  return withOrganizationCookie(Response.json(createOrganizationContract.response.parse(organization), { status: 201 }), organization.id);
});
