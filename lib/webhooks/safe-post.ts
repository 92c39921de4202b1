import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { checkedAddress, defaultOutboundPolicy, type OutboundPolicy, type ResolvedAddress } from "@/lib/net/outbound-policy";

export type SafePostOptions = { policy?: OutboundPolicy; timeoutMs?: number };
export type SafePostResult = { status: number; body: string; truncated: boolean };

/** The most of an answer kept (and stored in the delivery log): enough to read an error page's message. */
export const MAX_BODY_KEPT = 2048;

const noAnswer = (timeoutMs: number) => new Error(`No answer within ${timeoutMs} ms`);

/**
 * POSTs a body to a URL outside the private network. Redirects are not followed (the caller sees
 * the 3xx), the address is checked by the outbound policy at connection time, and only the start
 * of the answer is kept. `timeoutMs` bounds the whole exchange, the DNS lookup included: a test
 * event or a replay holds its API request for no longer than that, whatever the receiver (or its
 * name servers) do.
 */
export async function safePost(url: string, body: string, headers: Record<string, string>, options: SafePostOptions = {}): Promise<SafePostResult> {
  const policy = options.policy ?? defaultOutboundPolicy();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const startedAt = Date.now();
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error("Invalid URL");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error(`Unsupported protocol ${target.protocol}`);
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  let lookupTimer: NodeJS.Timeout | undefined;
  const checked = await Promise.race([
    checkedAddress(target.hostname, port, policy),
    new Promise<ResolvedAddress>((_, reject) => (lookupTimer = setTimeout(() => reject(noAnswer(timeoutMs)), timeoutMs))),
  ]).finally(() => clearTimeout(lookupTimer));
  const remainingMs = Math.max(1, timeoutMs - (Date.now() - startedAt));
  return new Promise((resolve, reject) => {
    const transport = target.protocol === "https:" ? https : http;
    // The request goes to the address just checked, so a second resolution (DNS rebinding) cannot
    // swap it; the URL's host stays the Host header and the name TLS verifies.
    const name = target.hostname.replace(/^\[(.*)\]$/, "$1");
    const request = transport.request(target, {
      method: "POST",
      headers: { ...headers, host: target.host, "content-length": String(Buffer.byteLength(body)) },
      hostname: checked.address,
      servername: isIP(name) ? undefined : name,
      setHost: false,
      agent: false,
      timeout: remainingMs,
    });
    // `timeout` only covers idle sockets; a receiver trickling its answer is cut off here.
    const deadline = setTimeout(() => request.destroy(noAnswer(timeoutMs)), remainingMs);
    request.on("timeout", () => request.destroy(noAnswer(timeoutMs)));
    request.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      const finish = () => {
        clearTimeout(deadline);
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), truncated });
      };
      response.on("data", (chunk: Buffer) => {
        if (truncated) return;
        chunks.push(chunk.subarray(0, Math.max(0, MAX_BODY_KEPT - kept)));
        kept += chunk.length;
        // One byte past the excerpt says there was more; the rest is not read.
        if (kept > MAX_BODY_KEPT) {
          truncated = true;
          finish();
          response.destroy();
        }
      });
      response.on("end", finish);
      response.on("error", finish);
    });
    request.end(body);
  });
}
