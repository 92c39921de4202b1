import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";
import { requireBrowserJsonRequest } from "@/lib/api/request-guards";
import { sessionUserId } from "@/lib/auth/session-user";
import { id } from "@/lib/schemas/common";
import { membershipRole } from "@/lib/services/accounts";
import { withOrganizationCookie } from "../organization-cookie";

const switchInput = z.object({ organization_id: id });

/** Switches the dashboard to another of the user's organizations. */
export async function POST(request: Request) {
  try {
    requireBrowserJsonRequest(request);
    const userId = await sessionUserId(request.headers.get("cookie"));
    if (!userId) throw new AppError("UNAUTHORIZED", "Sign in to continue");
    const parsed = switchInput.safeParse(await request.json().catch(() => ({})));
    if (!parsed.success) {
      throw new AppError(
        "VALIDATION_ERROR",
        "Invalid request body",
        parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      );
    }
    const role = await membershipRole(userId, parsed.data.organization_id);
    // Not a member looks exactly like no such organization.
    if (!role) throw new AppError("NOT_FOUND", "Organization not found");
    return withOrganizationCookie(Response.json({ current_organization_id: parsed.data.organization_id, role }), parsed.data.organization_id);
  } catch (error) {
    return errorResponse(error);
  }
}
