import { clientAddress } from "@/lib/api/client-address";
import { rateLimits } from "@/lib/api/rate-limit";
import { AppError } from "@/lib/domain/errors";
import { corsHeaders, json, messagePage, seeOther, unavailableAnswer } from "@/lib/forms/public-answers";
import { readSubmission, wantsJson } from "@/lib/forms/submit-request";
import { submitForm } from "@/lib/services/form-submissions";

type Context = { params: Promise<{ id: string }> };

/**
 * A public form's endpoint (decisions.md, "Consent"): no key, any origin. A script's fetch (JSON in,
 * or Accept: application/json) hears JSON; a plain HTML form is redirected to the form's
 * `redirect_url` or its thank-you page, or back to the hosted page naming what to fix.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { id } = await params;
  const asJson = wantsJson(request);
  const verdict = await rateLimits.formSubmission(clientAddress(request));
  if (!verdict.allowed) {
    const headers = { "retry-after": String(verdict.retryAfter) };
    const message = `Too many signups from your network; please try again in ${verdict.retryAfter} seconds.`;
    return asJson ? json(429, { error: message, code: "RATE_LIMITED" }, headers) : messagePage(429, "Please try again shortly", message, headers);
  }
  let raw: Record<string, unknown>;
  try {
    raw = await readSubmission(request);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const status = error.code === "PAYLOAD_TOO_LARGE" ? 413 : 400;
    return asJson ? json(status, { error: error.message, code: error.code, details: error.details }) : messagePage(status, "Not sent", error.message);
  }
  let result: Awaited<ReturnType<typeof submitForm>>;
  try {
    result = await submitForm(id, raw, clientAddress(request));
  } catch (error) {
    const answer = unavailableAnswer(error, asJson);
    if (answer) return answer;
    throw error;
  }
  if (result.kind === "not_found") {
    return asJson ? json(404, { error: "No such form", code: "NOT_FOUND" }) : messagePage(404, "Form not found", "This signup form does not exist any more.");
  }
  if (result.kind === "invalid") {
    if (asJson) return json(400, { error: `${result.issues[0].path} ${result.issues[0].message}`, code: "VALIDATION_ERROR", details: result.issues });
    return seeOther(`/f/${id}?invalid=${encodeURIComponent(result.issues.map((i) => i.path).join(","))}`);
  }
  const { form } = result;
  if (asJson) return json(200, { success: true, double_opt_in: form.double_opt_in });
  return seeOther(form.redirect_url ?? `/f/${id}?submitted=1`);
}

/** The CORS preflight of a fetch with a JSON body from another site. */
export function OPTIONS(): Response {
  return new Response(null, { status: 204, headers: { ...corsHeaders, "access-control-max-age": "86400" } });
}
