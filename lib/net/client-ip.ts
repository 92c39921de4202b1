import { clientAddress } from "@/lib/api/client-address";

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined | null;

/**
 * The caller's address from a plain header object, as next-auth hands one to `authorize`: the same
 * rule as every other per-address limit (lib/api/client-address.ts: the connection's address, or
 * X-Forwarded-For only behind TRUST_PROXY proxies).
 */
export function clientIp(source: HeaderSource): string | null {
  const headers = new Headers();
  if (source instanceof Headers) source.forEach((value, name) => headers.set(name, value));
  else {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (value === undefined) continue;
      try {
        headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      } catch {
        // A header the fetch API refuses says nothing about the address.
      }
    }
  }
  return clientAddress(new Request("http://localhost/", { headers }));
}
