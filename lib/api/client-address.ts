import { subscribe } from "node:diagnostics_channel";
import { env } from "@/lib/env";

/**
 * The header that carries the address of the connection a request came in on. Next.js gives route
 * handlers no socket, and keeps a client's own X-Forwarded-For (it only fills the header in when it
 * is missing), so the server writes the socket's address here for every request, over anything the
 * client sent under this name.
 */
export const PEER_HEADER = "x-mailplatform-peer";

type IncomingRequest = { headers: Record<string, string | string[] | undefined> };
type IncomingSocket = { remoteAddress?: string };

let recording = false;

/** Called once at server start (instrumentation.ts): records each connection's address in PEER_HEADER. */
export function recordPeerAddresses(): void {
  if (recording) return;
  recording = true;
  // Published synchronously for every request before any handler sees it.
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingRequest; socket: IncomingSocket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
  });
}

const MAX_ADDRESS = 100;

function normalize(address: string | null | undefined): string | null {
  const trimmed = address?.trim();
  if (!trimmed) return null;
  // IPv4 clients of a dual-stack socket show up as ::ffff:1.2.3.4.
  const plain = trimmed.startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice(7) : trimmed;
  return plain.slice(0, MAX_ADDRESS);
}

/**
 * The client's address, for tracking records and per-address limits. X-Forwarded-For is believed
 * only with TRUST_PROXY = n: each of the n proxies in front appended the address it was reached
 * from, so the client is the n-th entry from the end; anything before it is the client's own say.
 * Without TRUST_PROXY it is the address of the connection. null when neither is known.
 */
export function clientAddress(request: Request): string | null {
  if (env.trustProxy > 0) {
    const hops = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    const address = hops.length ? hops[Math.max(0, hops.length - env.trustProxy)] : null;
    if (address) return normalize(address);
  }
  return normalize(request.headers.get(PEER_HEADER));
}
