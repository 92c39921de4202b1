import { Resolver } from "node:dns/promises";
import { env } from "@/lib/env";

export type TxtLookup = { values: string[]; error: string | null };
export type MxLookup = { values: { exchange: string; priority: number }[]; error: string | null };

const reasons: Record<string, string> = {
  ENODATA: "no TXT record found",
  ENOTFOUND: "the name does not exist in DNS",
  ETIMEOUT: "the DNS lookup timed out",
  ESERVFAIL: "the DNS server failed to answer",
  EREFUSED: "the DNS server refused the query",
  ECONNREFUSED: "the DNS server could not be reached",
};

/** Lookups that found that nothing is there, as opposed to lookups that could not tell. */
export const definiteAbsence = (error: string | null) =>
  error === reasons.ENODATA || error === reasons.ENOTFOUND || error === "no MX record found" || error === "no CNAME record found";

type LookupOptions = { server?: string; timeoutMs?: number };

function resolver(options: LookupOptions): Resolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 1000, tries: 2 });
  const server = options.server ?? env.dnsResolver;
  if (server) resolver.setServers([server]);
  return resolver;
}

function reason(error: unknown, type: string): string {
  const code = (error as { code?: string }).code ?? "";
  if (code === "ENODATA") return `no ${type} record found`;
  return reasons[code] ?? `the DNS lookup failed${code ? ` (${code})` : ""}`;
}

/**
 * The TXT records at `name`, each record's strings joined. A failed lookup is an answer too (with
 * `error` saying why), because a domain owner needs to know what the check saw.
 * Uses `DNS_RESOLVER` (`host:port`) when set, so tests and private setups can point at their own server.
 */
export async function lookupTxt(name: string, options: LookupOptions = {}): Promise<TxtLookup> {
  try {
    const records = await resolver(options).resolveTxt(name);
    return { values: records.map((strings) => strings.join("")), error: null };
  } catch (error) {
    return { values: [], error: reason(error, "TXT") };
  }
}

/** The MX records at `name`, exchange names lowercase without a trailing dot. */
export async function lookupMx(name: string, options: LookupOptions = {}): Promise<MxLookup> {
  try {
    const records = await resolver(options).resolveMx(name);
    return { values: records.map((r) => ({ exchange: r.exchange.toLowerCase().replace(/\.$/, ""), priority: r.priority })), error: null };
  } catch (error) {
    return { values: [], error: reason(error, "MX") };
  }
}

/** The CNAME target at `name` (lowercase, without a trailing dot), as `values` of one. */
export async function lookupCname(name: string, options: LookupOptions = {}): Promise<TxtLookup> {
  try {
    const targets = await resolver(options).resolveCname(name);
    return { values: targets.map((target) => target.toLowerCase().replace(/\.$/, "")), error: null };
  } catch (error) {
    return { values: [], error: reason(error, "CNAME") };
  }
}
