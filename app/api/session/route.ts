import { sessionContract } from "@/lib/contracts/account";
import { AppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";
import { selectedOrganizationId, sessionUserId } from "@/lib/auth/session-user";
import { describeSession } from "@/lib/services/accounts";

// The dashboard's view of the signed-in user; not under /v1 because API keys have no use for it.
export async function GET(request: Request) {
  try {
    const userId = await sessionUserId(request.headers.get("cookie"));
    const session = userId ? await describeSession(userId, selectedOrganizationId(request)) : null;
    if (!session) throw new AppError("UNAUTHORIZED", "Sign in to continue");
    // What the dashboard reads (lib/client/session.ts) is this contract's response.
    return Response.json(sessionContract.response.parse(session), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
