import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from "node:crypto";
import { env } from "@/lib/env";

// The envelope sender of a relay email is `b+<token>@<return-path host>`: the token is the email's id
// and a MAC over the id and the host, under a key derived from AUTH_SECRET. A report sent to it names
// its email without our trusting anything the report says, and a token moved to another host (another
// organization's return path) or altered in any character is refused at RCPT.
// Lowercase base32: some relays fold the case of envelope addresses, which base64 would not survive.
const MAC_BYTES = 10;
const PREFIX = "b+";
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_LENGTH = Math.ceil(((16 + MAC_BYTES) * 8) / 5);

let cachedKey: KeyObject | undefined;
const key = () => (cachedKey ??= createSecretKey(Buffer.from(hkdfSync("sha256", env.authSecret, "mailplatform", "verp-return-path", 32))));

const mac = (id: Buffer, host: string) => createHmac("sha256", key()).update(id).update("\0").update(host).digest().subarray(0, MAC_BYTES);

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  // Only the canonical spelling: the bits left over must be zero.
  if ((value & ((1 << bits) - 1)) !== 0) return null;
  return Buffer.from(bytes);
}

const normalizeHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, "");

/** The VERP envelope sender of an email sent from a domain whose return path is `host`. */
export function returnPathAddress(emailId: string, host: string): string {
  if (!UUID.test(emailId)) throw new Error("A return-path token names an email id");
  const id = Buffer.from(emailId.replace(/-/g, ""), "hex");
  const h = normalizeHost(host);
  return `${PREFIX}${base32(Buffer.concat([id, mac(id, h)]))}@${h}`;
}

/** The email a return-path address names, with its host; null for anything forged, altered or malformed. */
export function readReturnPath(address: string): { emailId: string; host: string } | null {
  if (typeof address !== "string" || address.length > 320) return null;
  const at = address.lastIndexOf("@");
  if (at < 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const host = normalizeHost(address.slice(at + 1));
  if (!local.startsWith(PREFIX) || !host) return null;
  const token = local.slice(PREFIX.length);
  if (token.length !== TOKEN_LENGTH) return null;
  const bytes = unbase32(token);
  if (!bytes || bytes.length !== 16 + MAC_BYTES) return null;
  const id = bytes.subarray(0, 16);
  if (!timingSafeEqual(bytes.subarray(16), mac(id, host))) return null;
  const hex = id.toString("hex");
  return { emailId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`, host };
}
