import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { checkedAddress, defaultOutboundPolicy, isAdmittedEndpoint, type OutboundPolicy } from "./outbound-policy";

export type PolicyFetchOptions = {
  policy?: OutboundPolicy;
  /** The whole exchange, connecting to the last byte of the answer. */
  timeoutMs?: number;
  /** The most of an answer's body read; a longer one fails the request. */
  maxBodyBytes?: number;
};

type FetchInit = { method?: string; headers?: Record<string, string> | Headers; body?: unknown; signal?: AbortSignal | null };

/** The body as bytes: what openid-client sends is a URLSearchParams form, a string or nothing. */
function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error("Unsupported request body");
}

/**
 * A `fetch` for the OAuth providers' endpoints (discovery, token, JWKS): each URL's host is checked
 * against the outbound address policy at connect time and the request goes to the address that
 * passed (no second resolution to rebind); plain `http:` only to a host:port the operator admits
 * (ALLOWED_PRIVATE_HOSTS, the tests' loopback provider); redirects are not followed; the answer is
 * read within a deadline and up to a size, so a provider (or whatever a discovery document names)
 * can neither reach inside nor hold a worker.
 */
export function policyFetch(options: PolicyFetchOptions = {}) {
  const policy = options.policy ?? defaultOutboundPolicy();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  return async (input: string | URL, init: FetchInit = {}): Promise<Response> => {
    const target = new URL(input);
    const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
    if (target.protocol !== "https:" && !(target.protocol === "http:" && isAdmittedEndpoint(target.hostname, port, policy))) {
      throw new Error(`Refused to fetch ${target.origin}: only https, or http to a host the operator admits (ALLOWED_PRIVATE_HOSTS)`);
    }
    const { address } = await checkedAddress(target.hostname, port, policy);
    const body = bodyBytes(init.body);
    const headers = Object.fromEntries(init.headers instanceof Headers ? init.headers.entries() : Object.entries(init.headers ?? {}));
    const name = target.hostname.replace(/^\[(.*)\]$/, "$1");
    return new Promise<Response>((resolve, reject) => {
      const transport = target.protocol === "https:" ? https : http;
      const request = transport.request(target, {
        method: init.method ?? "GET",
        headers: { ...headers, host: target.host, ...(body && { "content-length": String(body.length) }) },
        hostname: address,
        servername: isIP(name) ? undefined : name,
        setHost: false,
        agent: false,
      });
      const fail = (error: Error) => {
        clearTimeout(deadline);
        request.destroy();
        reject(error);
      };
      const deadline = setTimeout(() => fail(new Error(`${target.origin} did not answer within ${timeoutMs} ms`)), timeoutMs);
      init.signal?.addEventListener("abort", () => fail(new Error("The request was aborted")), { once: true });
      request.on("error", fail);
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBodyBytes) return fail(new Error(`${target.origin} answered more than ${maxBodyBytes} bytes`));
          chunks.push(chunk);
        });
        response.on("error", fail);
        response.on("end", () => {
          clearTimeout(deadline);
          const answer = new Headers();
          for (const [key, value] of Object.entries(response.headers)) {
            for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(key, item);
          }
          const status = response.statusCode ?? 502;
          // A Response of status 204/304 may have no body at all.
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
      });
      request.end(body);
    });
  };
}
