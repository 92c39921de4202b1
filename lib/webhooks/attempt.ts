import { Webhook } from "standardwebhooks";
import { openSecret } from "@/lib/crypto/secret-box";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { safePost } from "./safe-post";

/** What one attempt sends: the delivery's id is its `webhook-id`, the same on every attempt and replay. */
export type AttemptTarget = { deliveryId: string; url: string; secretEncrypted: string; payload: unknown };

export type AttemptOptions = {
  /** Where webhooks may go; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
  /** The whole exchange, DNS lookup included (10 s, as the API reference promises receivers). */
  timeoutMs?: number;
};

/** One attempt as the delivery log keeps it: the request as sent (never the secret) and what came back. */
export type AttemptResult = {
  ok: boolean;
  url: string;
  requestHeaders: Record<string, string>;
  responseStatus: number | null;
  /** The answer's first 2 KB (safe-post.ts), as text PostgreSQL can store. */
  responseBody: string | null;
  responseBodyTruncated: boolean;
  error: string | null;
  attemptedAt: Date;
  durationMs: number;
};

/** The body of every attempt of a delivery: the stored payload, serialized the same way each time (the signature covers these bytes). */
export const deliveryBody = (payload: unknown) => JSON.stringify(payload);

// PostgreSQL text holds no NUL character: a receiver answering one must not make the attempt unrecordable.
const storable = (text: string) => text.replace(/\u0000/g, "\uFFFD");

/** Signs the delivery's payload on the Standard Webhooks scheme and POSTs it once, timing it. */
export async function attemptDelivery(target: AttemptTarget, options: AttemptOptions = {}): Promise<AttemptResult> {
  const body = deliveryBody(target.payload);
  const attemptedAt = new Date();
  const started = performance.now();
  const result = (fields: Omit<AttemptResult, "url" | "attemptedAt" | "durationMs" | "requestHeaders">, requestHeaders: Record<string, string> = {}) => ({
    ...fields,
    url: target.url,
    requestHeaders,
    attemptedAt,
    durationMs: Math.round(performance.now() - started),
  });
  let signature: string;
  try {
    signature = new Webhook(openSecret(target.secretEncrypted)).sign(target.deliveryId, attemptedAt, body);
  } catch {
    return result({ ok: false, responseStatus: null, responseBody: null, responseBodyTruncated: false, error: "The signing secret cannot be read" });
  }
  const headers = {
    "content-type": "application/json",
    "user-agent": "Mailplatform-Webhooks/1.0",
    "webhook-id": target.deliveryId,
    "webhook-timestamp": String(Math.floor(attemptedAt.getTime() / 1000)),
    "webhook-signature": signature,
  };
  try {
    const response = await safePost(target.url, body, headers, options);
    const text = storable(response.body);
    const answered = { responseStatus: response.status, responseBody: text, responseBodyTruncated: response.truncated };
    if (response.status >= 200 && response.status < 300) return result({ ok: true, ...answered, error: null }, headers);
    const why = response.status >= 300 && response.status < 400 ? "redirects are not followed" : text.trim().slice(0, 200);
    return result({ ok: false, ...answered, error: `HTTP ${response.status}${why ? `: ${why}` : ""}` }, headers);
  } catch (error) {
    const message = error instanceof Error ? storable(error.message).slice(0, 500) : "Request failed";
    return result({ ok: false, responseStatus: null, responseBody: null, responseBodyTruncated: false, error: message }, headers);
  }
}
