import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { canonicalIp, isPublicAddress, normalizeHost, parseAllowedEndpoint, type AllowedEndpoint } from "./host";

/**
 * Where a tenant's settings may make the platform connect: webhook URLs, inbox SMTP and IMAP
 * servers. Checked when the setting is saved and again, on the resolved address, when connecting
 * (a name may resolve elsewhere by then: DNS rebinding). One policy for all of them.
 */
export type OutboundPolicy = {
  /** Private endpoints the operator admits by name (ALLOWED_PRIVATE_HOSTS). */
  readonly allowed: readonly AllowedEndpoint[];
  /** The platform's own relays: never a tenant's destination unless `allowed` names their exact host:port. */
  readonly reserved: readonly Endpoint[];
  readonly lookup: Lookup;
};

export type Endpoint = { host: string; port: number };
export type { AllowedEndpoint };
export { isPublicAddress, normalizeHost };
export type ResolvedAddress = { address: string; family: number };
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** Why a destination is refused; tenants only ever see the generic sentence of `refusalMessage`. */
export type Refusal = "private" | "reserved" | "single-label" | "unresolvable";

export type Verdict = { allowed: true; addresses: ResolvedAddress[] } | { allowed: false; refusal: Refusal };

/** The host and port of an SMTP URL as nodemailer reads it (no port: 465 for smtps, else 587). */
function relayEndpoint(url: string): Endpoint | null {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === "smtps:" ? 465 : 587;
    return { host: normalizeHost(parsed.hostname).host, port };
  } catch {
    return null;
  }
}

const LOOKUP_TIMEOUT_MS = 5_000;

/** The system resolver (getaddrinfo, so /etc/hosts counts), every address, within a time limit. */
const systemLookup: Lookup = (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup of ${hostname} timed out`), { code: "ETIMEOUT" })), LOOKUP_TIMEOUT_MS);
  });
  return Promise.race([dnsLookup(hostname, { all: true, verbatim: true }), timeout]).finally(() => clearTimeout(timer));
};

export type PolicyOptions = {
  /** `host:port` / `host:*` entries (invalid ones are ignored here; lib/env.ts refuses them at start). */
  allowedPrivateHosts?: readonly string[];
  /** SMTP URLs of the platform's own relays. */
  reservedRelayUrls?: readonly (string | undefined)[];
  lookup?: Lookup;
};

export function outboundPolicy(options: PolicyOptions = {}): OutboundPolicy {
  return {
    allowed: (options.allowedPrivateHosts ?? []).map(parseAllowedEndpoint).filter((e): e is AllowedEndpoint => e !== null),
    reserved: (options.reservedRelayUrls ?? []).flatMap((url) => (url ? [relayEndpoint(url)].filter((e): e is Endpoint => e !== null) : [])),
    lookup: options.lookup ?? systemLookup,
  };
}

/** Nothing private admitted, no relay: what the security tests hold the code to. */
export const strictOutboundPolicy: OutboundPolicy = outboundPolicy();

let fromEnv: OutboundPolicy | undefined;

/** The operator's policy: ALLOWED_PRIVATE_HOSTS admitted, the relays of SMTP_RELAY_URL and SMTP_URL reserved. */
export function defaultOutboundPolicy(): OutboundPolicy {
  fromEnv ??= outboundPolicy({ allowedPrivateHosts: env.allowedPrivateHosts, reservedRelayUrls: [env.smtpRelayUrl, env.smtpUrl] });
  return fromEnv;
}

const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

async function resolve(host: string, ip: boolean, lookup: Lookup): Promise<ResolvedAddress[] | null> {
  if (ip) return [{ address: host, family: isIP(host) }];
  try {
    const addresses = await lookup(host);
    return addresses.length > 0 ? addresses.map((a) => ({ address: canonicalIp(a.address), family: a.family })) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the platform may connect to `host`:`port` for a tenant. Every address the host resolves
 * to must pass, so no answer of a round-robin name can lead inside. `when: "save"` accepts a name
 * that does not resolve (yet): it is checked again at connect time, where it is refused.
 */
export async function checkEndpoint(hostInput: string, port: number, policy: OutboundPolicy, when: "save" | "connect"): Promise<Verdict> {
  const { host, ip } = normalizeHost(hostInput);
  const listed = (exact: boolean) => policy.allowed.some((e) => e.host === host && (e.port === port || (!exact && e.port === "*")));
  const exactlyListed = listed(true);
  const listedByName = listed(false);

  if (!exactlyListed && policy.reserved.some((r) => r.host === host && r.port === port)) return { allowed: false, refusal: "reserved" };
  // A name without a dot resolves through the search domains of the platform's own network.
  if (!listedByName && !ip && !host.includes(".") && !isLocalhostName(host)) return { allowed: false, refusal: "single-label" };

  // localhost is loopback whatever a resolver says (RFC 6761), so no resolver can talk it out of the check.
  const addresses = isLocalhostName(host) ? [{ address: "127.0.0.1", family: 4 }] : await resolve(host, ip, policy.lookup);
  if (!addresses) return when === "save" ? { allowed: true, addresses: [] } : { allowed: false, refusal: "unresolvable" };

  if (!exactlyListed) {
    const relays = policy.reserved.filter((r) => r.port === port);
    for (const relay of relays) {
      const relayAddresses = (await resolve(relay.host, isIP(relay.host) !== 0, policy.lookup)) ?? [];
      if (addresses.some((a) => relayAddresses.some((r) => r.address === a.address))) return { allowed: false, refusal: "reserved" };
    }
  }
  if (listedByName) return { allowed: true, addresses };
  const admitted = (address: string) => policy.allowed.some((e) => e.host === address && (e.port === "*" || e.port === port));
  if (addresses.some((a) => !admitted(a.address) && !isPublicAddress(a.address))) return { allowed: false, refusal: "private" };
  return { allowed: true, addresses };
}

/** Whether the operator admits this endpoint by name (ALLOWED_PRIVATE_HOSTS): the only hosts plain-text HTTP may go to. */
export function isAdmittedEndpoint(hostInput: string, port: number, policy: OutboundPolicy): boolean {
  const { host } = normalizeHost(hostInput);
  return policy.allowed.some((e) => e.host === host && (e.port === port || e.port === "*"));
}

/** What a tenant is told when a destination is refused at save time: no resolved address, no detail of our network. */
export function refusalMessage(refusal: Refusal): string {
  switch (refusal) {
    case "reserved":
      return "is the platform's own mail relay, which an inbox cannot use";
    case "single-label":
      return "must be a fully qualified host name (like smtp.example.com)";
    default:
      return "must be a public address: loopback, private, link-local and reserved addresses are refused";
  }
}

/** A connection the policy refused. Its message is the same whatever the reason, like every connection failure a tenant sees. */
export class RefusedDestinationError extends Error {
  readonly code = "EREFUSEDDESTINATION";
  constructor(readonly refusal: Refusal) {
    super("Refused to connect to the destination: not a public address");
    this.name = "RefusedDestinationError";
  }
}

/** The address to connect to, checked now; throws RefusedDestinationError otherwise. */
export async function checkedAddress(host: string, port: number, policy: OutboundPolicy): Promise<ResolvedAddress> {
  const verdict = await checkEndpoint(host, port, policy, "connect");
  if (!verdict.allowed) throw new RefusedDestinationError(verdict.refusal);
  return verdict.addresses[0];
}
