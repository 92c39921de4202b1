import { AppError, errorResponse } from "@/lib/api/errors";
import { requireBrowserJsonRequest } from "@/lib/api/request-guards";
import { signUpInput } from "@/lib/schemas/accounts";
import { signUp } from "@/lib/services/accounts";

// Not under /v1: it creates the credential that /v1 then accepts.
export async function POST(request: Request) {
  try {
    requireBrowserJsonRequest(request);
    const parsed = signUpInput.safeParse(await request.json().catch(() => ({})));
    if (!parsed.success) {
      throw new AppError("VALIDATION_ERROR", "Invalid request body", parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
    }
    const { user, organization } = await signUp(parsed.data);
    return Response.json({ user_id: user.id, organization_id: organization?.id ?? null }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
