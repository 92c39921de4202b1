import { clientAddress } from "@/lib/api/client-address";
import { rateLimits } from "@/lib/api/rate-limit";
import { tryAgainPage, unavailableAnswer } from "@/lib/forms/public-answers";
import { confirmSubmission } from "@/lib/services/form-submissions";

type Context = { params: Promise<{ token: string }> };

/**
 * The confirmation page's button: subscribes the submission's contact (once), then goes to the
 * form's `redirect_url` or back to the page, which says so. No login: the signed token is the credential.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const verdict = await rateLimits.consentPageWrite("confirmation", clientAddress(request));
  if (!verdict.allowed) return tryAgainPage(verdict.retryAfter);
  let result: Awaited<ReturnType<typeof confirmSubmission>>;
  try {
    result = await confirmSubmission(token, clientAddress(request));
  } catch (error) {
    const answer = unavailableAnswer(error, false);
    if (answer) return answer;
    throw error;
  }
  if (result.kind === "not_found")
    return new Response("Unknown confirmation link\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const location = result.kind === "confirmed" && result.form.redirect_url ? result.form.redirect_url : `/f/confirm/${encodeURIComponent(token)}`;
  return new Response(null, { status: 303, headers: { location } });
}
