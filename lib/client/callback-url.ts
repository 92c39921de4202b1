// Control characters (browsers drop TAB, CR and LF from URLs before reading them, so "/\t/evil"
// becomes "//evil") and backslashes (read as "/"): none belongs in a path we send anyone to.
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
const BASE = "http://callback.invalid";
const MAX_LENGTH = 2048;

function looksSafe(value: string): boolean {
  return value.startsWith("/") && !value.startsWith("//") && !UNSAFE.test(value);
}

/**
 * Keeps `callbackUrl` on this site, on the server and in the browser alike: only a path of this
 * origin is followed, judged after the normalization a browser applies and after percent-decoding
 * (so "%2F%2Fevil", "/%09/evil" and "/%5Cevil" are refused too). Anything else, malformed input
 * included, gives `fallback`; it never throws.
 */
export function safeCallbackUrl(value: string | string[] | undefined | null, fallback = "/"): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH || !looksSafe(raw)) return fallback;
  let decoded = raw;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return fallback;
    }
    if (next === decoded) break;
    if (!looksSafe(next)) return fallback;
    decoded = next;
  }
  // The URL parser has the last word: resolved against a stand-in origin, it must stay there.
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A first query value as a string. */
export const firstParam = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
