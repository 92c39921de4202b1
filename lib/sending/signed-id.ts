import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from "node:crypto";
import { env } from "@/lib/env";

const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * A link that needs no login is its own credential: a record's id with a MAC under a key derived
 * from AUTH_SECRET for one purpose, so a token minted for one kind of link (unsubscribing an email)
 * never opens another (a contact's preferences). 43 characters of base64url.
 */
export function signedIds(purpose: string) {
  // A KeyObject, not a Buffer: createHmac re-imports a raw key on every call, several times the cost of the MAC itself.
  let cachedKey: KeyObject | undefined;
  const key = () => (cachedKey ??= createSecretKey(Buffer.from(hkdfSync("sha256", env.authSecret, "mailplatform", purpose, 32))));
  const mac = (id: Buffer) => createHmac("sha256", key()).update(id).digest().subarray(0, MAC_BYTES);

  return {
    sign(id: string): string {
      if (!UUID.test(id)) throw new Error(`A ${purpose} names a record id`);
      const bytes = Buffer.from(id.replace(/-/g, ""), "hex");
      return Buffer.concat([bytes, mac(bytes)]).toString("base64url");
    },
    /** The id a token names, or null for anything forged, truncated or malformed. */
    read(token: string): string | null {
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(token)) return null;
      const bytes = Buffer.from(token, "base64url");
      // Only the canonical spelling: base64's last character carries bits decoding ignores, so two
      // strings could otherwise name the same bytes.
      if (bytes.length !== 16 + MAC_BYTES || bytes.toString("base64url") !== token) return null;
      const id = bytes.subarray(0, 16);
      if (!timingSafeEqual(bytes.subarray(16), mac(id))) return null;
      const hex = id.toString("hex");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}
