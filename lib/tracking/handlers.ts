import { clientAddress } from "@/lib/api/client-address";
import { recordClick } from "./record-click";
import { recordOpen } from "./record-open";
import type { Visitor } from "./tracked-email";
import { verifyClickToken, verifyOpenToken } from "./token";
import { isServedHost, requestHost, servesEmail } from "./tracking-hosts";
import { errorField, log } from "@/lib/log";

const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

const noStore = { "cache-control": "no-store, no-cache, must-revalidate, private", pragma: "no-cache" };

// X-Forwarded-For is the client's own claim unless TRUST_PROXY says a proxy of ours wrote it.
export function visitorOf(request: Request): Visitor {
  return { userAgent: request.headers.get("user-agent"), ip: clientAddress(request) };
}

/** Whether the token is one of ours, for an email this host may serve (./tracking-hosts). */
async function servedHere(request: Request, verified: { emailId: string } | null): Promise<boolean> {
  return verified !== null && (await servesEmail(requestHost(request), verified.emailId));
}

/** GET /t/o/{token}: always the pixel, whatever happens, so a mail client never shows a broken image. */
export async function handleOpen(request: Request, token: string): Promise<Response> {
  try {
    if (await servedHere(request, verifyOpenToken(token))) await recordOpen(token, visitorOf(request));
  } catch (error) {
    log.error({ err: errorField(error) }, "tracking: recording an open failed");
  }
  return new Response(new Uint8Array(PIXEL), { headers: { ...noStore, "content-type": "image/gif", "content-length": String(PIXEL.length) } });
}

/** GET /t/c/{token}: a 302 to the email's own link, or 404 for anything else. */
export async function handleClick(request: Request, token: string): Promise<Response> {
  const url = (await servedHere(request, verifyClickToken(token))) ? await recordClick(token, visitorOf(request)) : null;
  if (!url) return new Response("Link not found", { status: 404, headers: { ...noStore, "content-type": "text/plain; charset=utf-8" } });
  // The token stays out of the destination's logs.
  return new Response(null, { status: 302, headers: { ...noStore, location: url, "referrer-policy": "no-referrer" } });
}

const MAX_HOST = 253;

/** GET /t/tls?domain=<host>: 200 for a host this app answers (./tracking-hosts), else 404, for a TLS proxy's certificate checks. */
export async function handleTlsAsk(request: Request): Promise<Response> {
  const asked = (new URL(request.url).searchParams.get("domain") ?? "").trim().toLowerCase().replace(/\.$/, "");
  const served = asked.length > 0 && asked.length <= MAX_HOST && (await isServedHost(asked));
  return new Response(null, { status: served ? 200 : 404, headers: noStore });
}
