import { clientAddress } from "@/lib/api/client-address";
import { rateLimits } from "@/lib/api/rate-limit";
import { readBodyBytes } from "@/lib/api/request-body";
import { AppError } from "@/lib/domain/errors";
import { tryAgainPage, unavailableAnswer } from "@/lib/forms/public-answers";
import { savePreferences } from "@/lib/services/preferences";

type Context = { params: Promise<{ token: string }> };

// A page shows at most MAX_TOPIC_CHOICES topics, ~100 bytes of form fields each.
const MAX_BODY = 256 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const plain = (status: number, text: string) => new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

/**
 * The preference page's form (no login: the signed token is the credential). `shown` lists the
 * topics the page drew, `on` those switched on, so a switch turned off is a choice too; the
 * "unsubscribe from everything" button sends `action=unsubscribe_all`. Back to the page (303).
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const verdict = await rateLimits.consentPageWrite("preferences", clientAddress(request));
  if (!verdict.allowed) return tryAgainPage(verdict.retryAfter);
  let form: URLSearchParams;
  try {
    form = new URLSearchParams((await readBodyBytes(request, MAX_BODY)).toString("utf8"));
  } catch (error) {
    if (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") return plain(413, "Too large");
    throw error;
  }
  const on = new Set(form.getAll("on").map((id) => id.toLowerCase()));
  const topics = new Map(
    form
      .getAll("shown")
      .filter((id) => UUID.test(id))
      .map((id) => [id.toLowerCase(), on.has(id.toLowerCase())]),
  );
  const unsubscribeAll = form.get("action") === "unsubscribe_all";
  let saved: boolean;
  try {
    saved = await savePreferences(token, { topics, unsubscribeAll });
  } catch (error) {
    const answer = unavailableAnswer(error, false);
    if (answer) return answer;
    throw error;
  }
  if (!saved) return plain(404, "Unknown preference link");
  // A relative Location keeps the person on whatever host they reached us through.
  return new Response(null, { status: 303, headers: { location: `/p/${encodeURIComponent(token)}?saved=${unsubscribeAll ? "all" : "1"}` } });
}
