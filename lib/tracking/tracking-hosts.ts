import { db, Prisma } from "@/lib/db";
import { env } from "@/lib/env";

// A tracking host is in use only while its CNAME is seen published on a domain whose ownership is
// proven (the ownership TXT holds a token of that organization's own domain row). The CNAME alone
// proves nothing about who owns the name: another tenant could add the same domain and see it too.
const ACTIVE = Prisma.sql`d.status = 'verified' AND d.tracking_subdomain IS NOT NULL AND d.tracking_verified_at IS NOT NULL`;

export type OrganizationTracking = { enabled: boolean; hosts: Map<string, string> };

/** Whether each organization tracks, and its active tracking hosts by sender domain (among `domains`): one round trip. */
export async function organizationTracking(organizationIds: string[], domains: string[]): Promise<Map<string, OrganizationTracking>> {
  const rows = await db.$queryRaw<{ id: string; enabled: boolean; hosts: Record<string, string> }[]>`
    SELECT o.id::text AS id, o.tracking_enabled AS enabled,
      (SELECT coalesce(jsonb_object_agg(d.name, d.tracking_subdomain || '.' || d.name), '{}') FROM domains d
       WHERE d.organization_id = o.id AND d.name = ANY(${domains}::text[]) AND ${ACTIVE}) AS hosts
    FROM organizations o WHERE o.id = ANY(${organizationIds}::uuid[])`;
  return new Map(rows.map((row) => [row.id, { enabled: row.enabled, hosts: new Map(Object.entries(row.hosts)) }]));
}

/** The host a request was made to (its Host header, as the client sent it), lowercase and without the port. */
export function requestHost(request: Request): string {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return host.trim().toLowerCase().replace(/:\d*$/, "").replace(/\.$/, "");
}

const platformHost = () => new URL(env.appUrl).hostname.toLowerCase();

/**
 * Whether a tracking link of this email may be served on `host`: the platform's own host serves every
 * organization's, a tracking host only its own organization's (another tenant's link on it would put
 * that tenant's mail under this one's name). A Host header made up by the client gains nothing: the
 * platform's host already serves every link, and any other name must be the email's own.
 */
export async function servesEmail(host: string, emailId: string): Promise<boolean> {
  if (host === platformHost()) return true;
  const [row] = await db.$queryRaw<{ ok: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM emails e JOIN domains d ON d.organization_id = e.organization_id
      WHERE e.id = ${emailId}::uuid AND d.tracking_subdomain || '.' || d.name = ${host} AND ${ACTIVE}) AS ok`;
  return row.ok;
}

/**
 * Whether `host` is the platform's or a tracking host in use: what a TLS proxy asks before it gets a
 * certificate on demand (Caddy's `on_demand_tls ask`), so that names pointed at us by anyone else
 * never cost a certificate authority's rate limit.
 */
export async function isServedHost(host: string): Promise<boolean> {
  if (host === platformHost()) return true;
  const [row] = await db.$queryRaw<{ ok: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM domains d WHERE d.tracking_subdomain || '.' || d.name = ${host} AND ${ACTIVE}) AS ok`;
  return row.ok;
}
