import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isAllowedAddress, type AddressPolicy } from "./address-policy";

/** A destination the address policy forbids: loopback, private, link-local, metadata, … */
export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(address === host ? `Refused to connect to ${address}: not a public address` : `Refused to connect to ${host} (${address}): not a public address`);
    this.name = "RefusedAddressError";
  }
}

export type SafePostOptions = { policy?: AddressPolicy; timeoutMs?: number };
export type SafePostResult = { status: number; body: string };

const MAX_BODY_KEPT = 1024;

/**
 * Resolves the host itself, refuses it when ANY of its addresses is not allowed, and hands the
 * checked address to the socket, so a second resolution (DNS rebinding) cannot swap it.
 */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
      if (refused) return callback(new RefusedAddressError(hostname, refused.address), "", 0);
      if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), "", 0);
      const chosen = addresses[0];
      // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily); give it just the checked one.
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, [chosen]);
      callback(null, chosen.address, chosen.family);
    });
  };
}

/**
 * POSTs a body to a URL outside the private network. Redirects are not followed (the caller sees
 * the 3xx), the address is checked at connection time, and only the start of the answer is kept.
 */
export function safePost(url: string, body: string, headers: Record<string, string>, options: SafePostOptions = {}): Promise<SafePostResult> {
  const policy = options.policy ?? {};
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new Error("Invalid URL"));
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") return reject(new Error(`Unsupported protocol ${target.protocol}`));
    const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
    // A literal address never reaches the lookup function, so it is checked here.
    if (isIP(host) && !isAllowedAddress(host, policy)) return reject(new RefusedAddressError(host, host));

    const transport = target.protocol === "https:" ? https : http;
    const request = transport.request(target, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: checkedLookup(policy),
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
