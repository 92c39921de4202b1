/** Keeps `callbackUrl` on this site: only a path (never `//host` or an absolute URL) is followed. */
export function safeCallbackUrl(value: string | string[] | undefined | null, fallback = "/"): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return fallback;
  return raw;
}

/** A first query value as a string. */
export const firstParam = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
