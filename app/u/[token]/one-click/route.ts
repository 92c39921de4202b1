import { unsubscribeByToken } from "@/lib/sending/unsubscribe";

type Context = { params: Promise<{ token: string }> };

// A relative Location keeps the redirect on whatever host the person reached us through.
const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });

/**
 * RFC 8058 one-click unsubscribe (the `List-Unsubscribe` URL; mailbox providers POST
 * `List-Unsubscribe=One-Click` to it) and the unsubscribe page's button, which comes back to the
 * page. No login: the signed token is the credential.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const form = await request.formData().catch(() => null);
  const fromPage = form?.get("source") === "page";
  if (!(await unsubscribeByToken(token))) return new Response("Unknown unsubscribe link\n", { status: 404 });
  if (fromPage) return seeOther(`/u/${encodeURIComponent(token)}?done=1`);
  return new Response("Unsubscribed\n", { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** A client that opens the header's URL in a browser lands on the page, which asks before unsubscribing. */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  return seeOther(`/u/${encodeURIComponent(token)}`);
}
