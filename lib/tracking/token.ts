import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from "node:crypto";
import { env } from "@/lib/env";

// Tracking links carry what they point to, signed: a click can only lead to a URL this service
// put into that very email, and nobody can forge an open or a click for another email.
type Kind = "open" | "click";

const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A KeyObject, not a Buffer: createHmac re-imports a raw key on every call, several times the cost of the MAC itself.
let cachedKey: KeyObject | undefined;
const key = () => (cachedKey ??= createSecretKey(Buffer.from(hkdfSync("sha256", env.authSecret, "mailplatform", "tracking-links", 32))));

const mac = (kind: Kind, payload: Buffer) => createHmac("sha256", key()).update(kind).update("\0").update(payload).digest().subarray(0, MAC_BYTES);

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const uuidText = (bytes: Buffer) => {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

function sign(kind: Kind, payload: Buffer): string {
  return `${payload.toString("base64url")}.${mac(kind, payload).toString("base64url")}`;
}

function verify(kind: Kind, token: string): Buffer | null {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return null;
  const payload = Buffer.from(body, "base64url");
  const given = Buffer.from(signature, "base64url");
  if (payload.length < 16 || given.length !== MAC_BYTES) return null;
  // Only the canonical spelling: base64's last character carries bits decoding ignores.
  if (payload.toString("base64url") !== body || given.toString("base64url") !== signature) return null;
  return timingSafeEqual(given, mac(kind, payload)) ? payload : null;
}

export function signOpenToken(emailId: string): string {
  if (!UUID.test(emailId)) throw new Error("Tracking needs the email's UUID");
  return sign("open", uuidBytes(emailId));
}

export function signClickToken(emailId: string, url: string): string {
  if (!UUID.test(emailId)) throw new Error("Tracking needs the email's UUID");
  return sign("click", Buffer.concat([uuidBytes(emailId), Buffer.from(url, "utf8")]));
}

/** The email an open token was made for, or null when the token is not one of ours. */
export function verifyOpenToken(token: string): { emailId: string } | null {
  const payload = verify("open", token);
  return payload && payload.length === 16 ? { emailId: uuidText(payload) } : null;
}

/** The email and the original URL a click token was made for, or null when it is not one of ours. */
export function verifyClickToken(token: string): { emailId: string; url: string } | null {
  const payload = verify("click", token);
  if (!payload || payload.length === 16) return null;
  return { emailId: uuidText(payload.subarray(0, 16)), url: payload.subarray(16).toString("utf8") };
}
