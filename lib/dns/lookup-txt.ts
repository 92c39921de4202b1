import { Resolver } from "node:dns/promises";
import { env } from "@/lib/env";

export type TxtLookup = { values: string[]; error: string | null };

const reasons: Record<string, string> = {
  ENODATA: "no TXT record found",
  ENOTFOUND: "the name does not exist in DNS",
  ETIMEOUT: "the DNS lookup timed out",
  ESERVFAIL: "the DNS server failed to answer",
  EREFUSED: "the DNS server refused the query",
  ECONNREFUSED: "the DNS server could not be reached",
};

/**
 * The TXT records at `name`, each record's strings joined. A failed lookup is an answer too (with
 * `error` saying why), because a domain owner needs to know what the check saw.
 * Uses `DNS_RESOLVER` (`host:port`) when set, so tests and private setups can point at their own server.
 */
export async function lookupTxt(name: string, options: { server?: string; timeoutMs?: number } = {}): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 1000, tries: 2 });
  try {
    const server = options.server ?? env.dnsResolver;
    if (server) resolver.setServers([server]);
    const records = await resolver.resolveTxt(name);
    return { values: records.map((strings) => strings.join("")), error: null };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    return { values: [], error: reasons[code] ?? `the DNS lookup failed${code ? ` (${code})` : ""}` };
  }
}
