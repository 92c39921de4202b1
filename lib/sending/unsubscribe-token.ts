import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from "node:crypto";
import { env } from "@/lib/env";

// Unsubscribing needs no login, so the link itself is the credential: the email's id with a MAC
// under a key derived from AUTH_SECRET. It names one email, from which the contact follows.
const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

// A KeyObject, not a Buffer: createHmac re-imports a raw key on every call, several times the cost of the MAC itself.
let cachedKey: KeyObject | undefined;
const key = () => (cachedKey ??= createSecretKey(Buffer.from(hkdfSync("sha256", env.authSecret, "mailplatform", "unsubscribe-token", 32))));

const mac = (id: Buffer) => createHmac("sha256", key()).update(id).digest().subarray(0, MAC_BYTES);

export function unsubscribeToken(emailId: string): string {
  if (!UUID.test(emailId)) throw new Error("An unsubscribe token names an email id");
  const id = Buffer.from(emailId.replace(/-/g, ""), "hex");
  return Buffer.concat([id, mac(id)]).toString("base64url");
}

/** The email id a token names, or null for anything forged, truncated or malformed. */
export function readUnsubscribeToken(token: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  // Only the canonical spelling: base64's last character carries bits decoding ignores, so two
  // strings could otherwise name the same bytes.
  if (bytes.length !== 16 + MAC_BYTES || bytes.toString("base64url") !== token) return null;
  const id = bytes.subarray(0, 16);
  if (!timingSafeEqual(bytes.subarray(16), mac(id))) return null;
  const hex = id.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The page a person opens from the link in the body, and the RFC 8058 one-click endpoint named in List-Unsubscribe. */
export function unsubscribeUrls(emailId: string): { page: string; oneClick: string } {
  const page = `${env.appUrl}/u/${unsubscribeToken(emailId)}`;
  return { page, oneClick: `${page}/one-click` };
}
