import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** The resource server's credentials: what the SMTP sink and dovecot introspect tokens with. */
export const INTROSPECTION_CLIENT = { id: "mail-server", secret: "mail-server-secret-0123456789" };

export type OAuthProviderOptions = {
  /** Where the app's callback is (`<APP_URL>/api/inboxes/oauth/callback`). */
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of access tokens, seconds (short in tests that see one expire). */
  accessTokenTtlSeconds?: number;
  /** Scopes the client may ask for beyond `openid email offline_access`. */
  scopes?: string[];
};

export type OAuthProvider = {
  issuer: string;
  host: string;
  port: number;
  clientId: string;
  clientSecret: string;
  provider: Provider;
  /** How many refresh-token grants the provider answered (each a refresh by the app). */
  refreshes: () => number;
  /** Ends every grant of the account: its refresh and access tokens stop working (as when a person removes the app's access). */
  revokeGrants: (accountId: string) => Promise<number>;
  /** Makes one access token invalid before its time (as a provider may at any moment). */
  revokeAccessToken: (token: string) => Promise<void>;
  /** Whether the provider still takes this access token (RFC 7662 introspection, as the mail servers ask). */
  introspect: (token: string) => Promise<{ active: boolean; sub?: string }>;
  stop: () => Promise<void>;
};

/**
 * A real OAuth 2.0 / OpenID Connect server (oidc-provider) on loopback, standing in for Google or
 * Microsoft: discovery, authorization code with PKCE, ID tokens signed by its JWKS, refresh tokens
 * (rotated on use, as Microsoft does: a stale one replayed revokes the grant), short-lived opaque
 * access tokens, introspection and revocation. Its sign-in and consent pages are oidc-provider's
 * development interactions, which take any login: the account id is the mailbox address.
 */
export async function startOAuthProvider(options: OAuthProviderOptions): Promise<OAuthProvider> {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? "mailplatform";
  const clientSecret = options.clientSecret ?? "mailplatform-client-secret-0123456789";
  const mailScopes = options.scopes ?? ["https://mail.google.com/"];
  let refreshes = 0;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
        scope: ["openid", "email", "offline_access", ...mailScopes].join(" "),
      },
      { client_id: INTROSPECTION_CLIENT.id, client_secret: INTROSPECTION_CLIENT.secret, redirect_uris: [], response_types: [], grant_types: [] },
    ],
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: id, email_verified: true }) }),
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    // The ID token carries the email, as Google's does.
    conformIdTokenClaims: false,
    scopes: ["openid", "email", "offline_access", ...mailScopes],
    features: {
      devInteractions: { enabled: true },
      // Only the mail servers' own client may ask about tokens.
      introspection: { enabled: true, allowedPolicy: (_ctx, client) => client.clientId === INTROSPECTION_CLIENT.id },
      revocation: { enabled: true },
    },
    pkce: { required: () => true },
    // Google gives a refresh token for `access_type=offline` without the offline_access scope.
    issueRefreshToken: () => true,
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 3600,
      IdToken: 3600,
      RefreshToken: 86_400,
      AuthorizationCode: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 86_400,
    },
  });
  // Which grants each account holds, for revokeGrants.
  const grants = new Map<string, Set<string>>();
  const remember = (token: { accountId?: string; grantId?: string }) => {
    if (!token.accountId || !token.grantId) return;
    if (!grants.has(token.accountId)) grants.set(token.accountId, new Set());
    grants.get(token.accountId)!.add(token.grantId);
  };
  provider.on("refresh_token.saved", remember);
  provider.on("access_token.saved", remember);
  provider.on("grant.success", (ctx) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") refreshes += 1;
  });
  handler = provider.callback();

  const introspect = async (token: string) => {
    const response = await fetch(`${issuer}/token/introspection`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${INTROSPECTION_CLIENT.id}:${INTROSPECTION_CLIENT.secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token }),
    });
    return (await response.json()) as { active: boolean; sub?: string };
  };

  return {
    issuer,
    host: "127.0.0.1",
    port,
    clientId,
    clientSecret,
    provider,
    refreshes: () => refreshes,
    revokeGrants: async (accountId) => {
      const grantIds = [...(grants.get(accountId) ?? [])];
      for (const grantId of grantIds) {
        // One call removes every token of the grant (the adapter indexes them by grant).
        await provider.AccessToken.adapter.revokeByGrantId(grantId);
        await (await provider.Grant.find(grantId))?.destroy();
      }
      grants.delete(accountId);
      return grantIds.length;
    },
    revokeAccessToken: async (token) => {
      const found = await provider.AccessToken.find(token);
      await found?.destroy();
    },
    introspect,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A cookie jar of one browser, enough for the provider's sign-in and consent pages. */
class Cookies {
  private readonly jar = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
  header(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Plays the person at the provider: opens the authorization URL, signs in as `accountId` and
 * grants consent, following the provider's own redirects, and answers the URL the provider sends
 * the browser back to (the app's callback, not followed).
 */
export async function consentAt(provider: OAuthProvider, authorizationUrl: string, accountId: string): Promise<URL> {
  const cookies = new Cookies();
  let url = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: cookies.header(), ...(body && { "content-type": "application/x-www-form-urlencoded" }) },
      body,
    });
    cookies.take(response);
    body = undefined;
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== provider.issuer) return next;
      url = next;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`The provider answered ${response.status}: ${page.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`No sign-in or consent form on the provider's page: ${page.slice(0, 500)}`);
    url = new URL(action.replace(/&amp;/g, "&"), url);
    body = new URLSearchParams(prompt === "login" ? { prompt, login: accountId, password: "any" } : { prompt });
  }
  throw new Error("The provider kept redirecting");
}
