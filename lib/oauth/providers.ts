import * as client from "openid-client";
import { env } from "@/lib/env";
import type { OAuthProvider } from "@/lib/generated/prisma/enums";
import { defaultOutboundPolicy, isAdmittedEndpoint, type OutboundPolicy } from "@/lib/net/outbound-policy";
import { policyFetch } from "@/lib/net/policy-fetch";
import { oauthProviderTable } from "./provider-table";

export type ProviderSettings = { clientId?: string; clientSecret?: string; issuer: string };

/** Why a provider cannot be used: not configured, or an issuer the policy refuses. */
export class OAuthUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthUnavailableError";
  }
}

const providerSettings = (provider: OAuthProvider): ProviderSettings => env.oauthProviders[provider];

/** Providers whose client id and secret are set: the dashboard offers "Connect" for these. */
export function configuredProviders(): OAuthProvider[] {
  return (Object.keys(oauthProviderTable) as OAuthProvider[]).filter((p) => Boolean(providerSettings(p).clientId && providerSettings(p).clientSecret));
}

/** Whether the issuer may be used: https, or http on a host:port the operator admits (the tests' loopback provider). */
function assertIssuerAllowed(issuer: URL, policy: OutboundPolicy) {
  if (issuer.protocol === "https:") return;
  const port = Number(issuer.port || 80);
  if (issuer.protocol === "http:" && isAdmittedEndpoint(issuer.hostname, port, policy)) return;
  throw new OAuthUnavailableError(`The ${issuer.origin} issuer is not https, and its host is not admitted by ALLOWED_PRIVATE_HOSTS`);
}

type Cached = { configuration: client.Configuration; at: number };
const cache = new Map<string, Promise<Cached>>();
// The discovery document and its keys change rarely; a day-old copy would only delay a key rotation
// (openid-client fetches the JWKS again for a key id it does not know).
const DISCOVERY_TTL_MS = 60 * 60_000;

/**
 * The provider's client configuration, from its issuer's OpenID discovery document (cached an
 * hour per process). Every request it makes (discovery, token, JWKS) goes through the outbound
 * address policy (policyFetch).
 */
export async function providerConfiguration(provider: OAuthProvider, policy = defaultOutboundPolicy()): Promise<client.Configuration> {
  const settings = providerSettings(provider);
  if (!settings.clientId || !settings.clientSecret) {
    throw new OAuthUnavailableError(
      `${oauthProviderTable[provider].label} is not configured: set OAUTH_${provider.toUpperCase()}_CLIENT_ID and _CLIENT_SECRET`,
    );
  }
  const issuer = new URL(settings.issuer);
  assertIssuerAllowed(issuer, policy);
  const key = `${provider}\n${settings.issuer}\n${settings.clientId}`;
  const hit = cache.get(key);
  if (hit) {
    const cached = await hit.catch(() => null);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
  }
  const fetch = policyFetch({ policy });
  const pending = client
    .discovery(issuer, settings.clientId, settings.clientSecret, client.ClientSecretPost(settings.clientSecret), {
      [client.customFetch]: fetch,
      execute: issuer.protocol === "http:" ? [client.allowInsecureRequests] : [],
    })
    .then((configuration) => ({ configuration, at: Date.now() }));
  cache.set(key, pending);
  // A failed discovery is not kept: the next attempt asks again.
  pending.catch(() => cache.delete(key));
  return (await pending).configuration;
}
