type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined | null;

function header(source: HeaderSource, name: string): string | undefined {
  if (!source) return undefined;
  if (source instanceof Headers) return source.get(name) ?? undefined;
  const value = source[name] ?? source[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The caller's address as far as this process can tell. Next.js puts the socket's address in
 * X-Forwarded-For when the request has none, so the first entry is the socket or what the nearest
 * proxy wrote. Per-IP limits key on it; per-account limits do not depend on it at all.
 * (When TRUST_PROXY lands, this is the one place that decides which entry to believe.)
 */
export function clientIp(source: HeaderSource): string | null {
  const forwarded = header(source, "x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || header(source, "x-real-ip")?.trim() || null;
  // An address is at most 45 characters (IPv6 with an IPv4 tail); anything longer is not one.
  return ip ? ip.slice(0, 64) : null;
}
