import { AppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";
import { requireBrowserJsonRequest } from "@/lib/api/request-guards";
import { sessionUserId } from "@/lib/auth/session-user";
import { createOrganizationContract } from "@/lib/contracts/account";
import { createOrganizationInput } from "@/lib/schemas/accounts";
import { createOrganizationForUser } from "@/lib/services/accounts";
import { withOrganizationCookie } from "../organization-cookie";

/** Creates an organization owned by the signed-in user and switches the dashboard to it. */
export async function POST(request: Request) {
  try {
    requireBrowserJsonRequest(request);
    const userId = await sessionUserId(request.headers.get("cookie"));
    if (!userId) throw new AppError("UNAUTHORIZED", "Sign in to continue");
    const parsed = createOrganizationInput.safeParse(await request.json().catch(() => ({})));
    if (!parsed.success) {
      throw new AppError(
        "VALIDATION_ERROR",
        "Invalid request body",
        parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      );
    }
    const organization = await createOrganizationForUser(userId, parsed.data.name);
    return withOrganizationCookie(Response.json(createOrganizationContract.response.parse(organization), { status: 201 }), organization.id);
  } catch (error) {
    return errorResponse(error);
  }
}
