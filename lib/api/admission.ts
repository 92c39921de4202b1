import { clientAddress } from "./client-address";
import { isMultipart } from "./multipart-body";
import { resolveCaller } from "./credentials";
import { AppError } from "@/lib/domain/errors";
import { rateLimits, refusal, type Verdict } from "./rate-limit";
import { requireJsonBody, requireSameOrigin } from "./request-guards";

const SESSION_COOKIE = /(?:^|;)\s*(?:__Secure-)?next-auth\.session-token/;
const presentsCredential = (request: Request) => request.headers.has("authorization") || SESSION_COOKIE.test(request.headers.get("cookie") ?? "");

function throwIfRefused(verdicts: Verdict[]) {
  const refused = refusal(verdicts);
  if (refused) throw refused;
}

/**
 * Everything a /v1 request passes before its operation looks at it: the caller's credential (with
 * failed authentications counted against the client's address), the rate limits, a JSON body, and
 * for the session cookie the Origin check. `limited` hears each set of rate-limit verdicts, for the
 * headers of whatever the answer turns out to be.
 */
export async function admit(request: Request, limited: (verdicts: Verdict[]) => void, { multipart = false } = {}) {
  const address = clientAddress(request);
  const blocked = rateLimits.blockedAddress(address);
  limited(blocked);
  throwIfRefused(blocked);
  let caller: Awaited<ReturnType<typeof resolveCaller>>;
  try {
    caller = await resolveCaller(request);
  } catch (error) {
    // A request with no credential at all is no guess; a wrong key or a forged session is.
    if (error instanceof AppError && error.code === "UNAUTHORIZED" && presentsCredential(request)) {
      const verdicts = await rateLimits.failedAuthentication(address);
      limited(verdicts);
      throwIfRefused(verdicts);
    }
    throw error;
  }
  const verdicts = await rateLimits.forCaller(
    caller.user.apiKeyId ? `key:${caller.user.apiKeyId}` : `user:${caller.user.userId}`,
    caller.org?.organizationId ?? null,
  );
  limited(verdicts);
  throwIfRefused(verdicts);
  // An upload may come as a form; a cookie's form post from another site still fails the Origin check below.
  if (!(multipart && isMultipart(request))) requireJsonBody(request);
  // An API key travels in a header no other site can make a browser send; the session cookie goes with any request.
  if (!request.headers.has("authorization") && request.headers.has("cookie")) requireSameOrigin(request);
  return caller;
}
