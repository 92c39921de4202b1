import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { checkedAddress, defaultOutboundPolicy, type OutboundPolicy } from "@/lib/net/outbound-policy";

export type SafePostOptions = { policy?: OutboundPolicy; timeoutMs?: number };
export type SafePostResult = { status: number; body: string };

const MAX_BODY_KEPT = 1024;

/**
 * POSTs a body to a URL outside the private network. Redirects are not followed (the caller sees
 * the 3xx), the address is checked by the outbound policy at connection time, and only the start
 * of the answer is kept.
 */
export async function safePost(url: string, body: string, headers: Record<string, string>, options: SafePostOptions = {}): Promise<SafePostResult> {
  const policy = options.policy ?? defaultOutboundPolicy();
  const timeoutMs = options.timeoutMs ?? 10_000;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error("Invalid URL");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error(`Unsupported protocol ${target.protocol}`);
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const checked = await checkedAddress(target.hostname, port, policy);
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
      timeout: timeoutMs,
    });
    // `timeout` only covers idle sockets; a receiver trickling its answer is cut off here.
    const deadline = setTimeout(() => request.destroy(new Error(`No answer within ${timeoutMs} ms`)), timeoutMs);
    request.on("timeout", () => request.destroy(new Error(`No answer within ${timeoutMs} ms`)));
    request.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        clearTimeout(deadline);
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
      };
      response.on("data", (chunk: Buffer) => {
        if (kept >= MAX_BODY_KEPT) return;
        chunks.push(chunk.subarray(0, MAX_BODY_KEPT - kept));
        kept += chunk.length;
        if (kept >= MAX_BODY_KEPT) {
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
