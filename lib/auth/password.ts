import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// scrypt from node:crypto: a slow, memory-hard hash with no native addon to build.
const N = 16384;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, n = N, rr = r, pp = p): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, expected] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !expected) return false;
  const key = await derive(password, Buffer.from(salt, "base64url"), Number(n), Number(rr), Number(pp));
  const want = Buffer.from(expected, "base64url");
  return want.length === key.length && timingSafeEqual(want, key);
}

// A hash of a password nobody knows, made once per process: checking a password for an address
// with no account costs the same scrypt as for a real one, so the timing tells nothing.
let dummyHash: Promise<string> | undefined;

/** Spends the time of a real check and answers false (for sign-ins with an unknown address). */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummyHash);
  return false;
}
