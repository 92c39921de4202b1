import { returnPathHost } from "@/lib/domain/addresses";
import { env } from "@/lib/env";
import { definiteAbsence, lookupCname, lookupMx, lookupTxt } from "@/lib/dns/lookup-txt";
import type { Domain } from "@/lib/generated/prisma/client";

export type RecordPurpose = "ownership" | "dkim" | "return_path" | "return_path_spf" | "dmarc" | "tracking";
export type RecordStatus = "verified" | "pending" | "mismatch";

/** A record to publish: what the API answers and the page shows. */
export type ExpectedRecord = { type: "TXT" | "MX" | "CNAME"; name: string; value: string; priority?: number; purpose: RecordPurpose };

export type RecordCheck = { status: RecordStatus; found: string[]; reason: string | null; checked_at: string };
export type DomainWarning = { code: "SPF_CONFLICT" | "DMARC_MULTIPLE"; message: string; found: string[] };
/** The checks of one lookup: every record, the tracking CNAME only when the domain has a tracking host. */
export type CheckedRecords = Record<Exclude<RecordPurpose, "tracking">, RecordCheck> & { tracking?: RecordCheck };
/** What `domains.record_checks` holds. */
export type RecordChecks = { records?: Partial<Record<RecordPurpose, RecordCheck>>; warnings?: DomainWarning[] };

type DomainFields = Pick<Domain, "name" | "verification_token" | "dkim_selector" | "dkim_public_key" | "return_path" | "tracking_subdomain">;

export const ownershipName = (domain: Pick<Domain, "name">) => `_mailplatform.${domain.name}`;
export const ownershipValue = (domain: Pick<Domain, "verification_token">) => `mailplatform-verification=${domain.verification_token}`;
/** The tracking host (links.example.com), or null when the domain has none. */
const trackingHost = (domain: Pick<Domain, "name" | "tracking_subdomain">) =>
  domain.tracking_subdomain ? `${domain.tracking_subdomain}.${domain.name}` : null;
/** What a tracking host's CNAME names: the app's own host, which then answers the tracking routes for it. */
const trackingTarget = () => new URL(env.appUrl).hostname.toLowerCase();
const returnPathSpf = () => `v=spf1${env.relaySpf ? ` ${env.relaySpf}` : ""} ~all`;
const suggestedDmarc = (domain: Pick<Domain, "name">) => `v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain.name}; adkim=r; aspf=r`;

/** Every record the domain owner publishes, in the order the page lists them. */
export function expectedRecords(domain: DomainFields): ExpectedRecord[] {
  const records: ExpectedRecord[] = [{ type: "TXT", name: ownershipName(domain), value: ownershipValue(domain), purpose: "ownership" }];
  if (domain.dkim_public_key) {
    records.push({
      type: "TXT",
      name: `${domain.dkim_selector}._domainkey.${domain.name}`,
      value: `v=DKIM1; k=rsa; p=${domain.dkim_public_key}`,
      purpose: "dkim",
    });
  }
  const host = returnPathHost(domain);
  records.push(
    { type: "MX", name: host, value: env.inboundSmtpHost, priority: 10, purpose: "return_path" },
    { type: "TXT", name: host, value: returnPathSpf(), purpose: "return_path_spf" },
    { type: "TXT", name: `_dmarc.${domain.name}`, value: suggestedDmarc(domain), purpose: "dmarc" },
  );
  const tracking = trackingHost(domain);
  if (tracking) records.push({ type: "CNAME", name: tracking, value: trackingTarget(), purpose: "tracking" });
  return records;
}

const isSpf = (value: string) => /^v=spf1(\s|$)/i.test(value.trim());
const isDmarc = (value: string) => /^v=DMARC1\s*(;|$)/i.test(value.trim());
const tags = (value: string) =>
  new Map(
    value
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf("=");
        return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, "")] as const;
      }),
  );

type Looked = { values: string[]; error: string | null };

function judge(lookup: Looked, matches: (value: string) => boolean, relevant: (value: string) => boolean = () => true): Omit<RecordCheck, "checked_at"> {
  const found = lookup.values
    .filter(relevant)
    .slice(0, 10)
    .map((v) => v.slice(0, 1000));
  if (lookup.values.some(matches)) return { status: "verified", found, reason: null };
  if (lookup.error) return { status: "pending", found, reason: lookup.error };
  if (found.length === 0) return { status: "pending", found, reason: "no matching record found" };
  return { status: "mismatch", found, reason: "records were found, but none has the expected value" };
}

/**
 * Looks up every record of the domain and says, for each, whether it is published as expected:
 * `verified`, `pending` (nothing there yet, or the lookup could not tell) or `mismatch` (something
 * else is there, shown in `found`). An SPF record of someone else's at the return path, or two SPF
 * records there (a permanent error, RFC 7208 §3.2), is a warning as well.
 */
export async function checkRecords(domain: DomainFields): Promise<{ records: CheckedRecords; warnings: DomainWarning[] }> {
  const expected = expectedRecords(domain);
  const host = returnPathHost(domain);
  const tracking = trackingHost(domain);
  const [ownership, dkim, mx, spf, dmarc, cname] = await Promise.all([
    lookupTxt(ownershipName(domain)),
    domain.dkim_public_key ? lookupTxt(`${domain.dkim_selector}._domainkey.${domain.name}`) : Promise.resolve({ values: [], error: "no DKIM key" }),
    lookupMx(host),
    lookupTxt(host),
    lookupTxt(`_dmarc.${domain.name}`),
    tracking ? lookupCname(tracking) : null,
  ]);
  const spfValue = returnPathSpf();
  const ourMechanisms = env.relaySpf.toLowerCase().split(/\s+/).filter(Boolean);
  const spfRecords = spf.values.filter(isSpf);
  const spfMatches = (value: string) => {
    if (!isSpf(value) || spfRecords.length !== 1) return false;
    const terms = value.toLowerCase().split(/\s+/);
    return value.trim() === spfValue || ourMechanisms.every((m) => terms.includes(m) || terms.includes(`+${m}`));
  };
  const dmarcRecords = dmarc.values.filter(isDmarc);
  const now = new Date().toISOString();
  const stamp = (check: Omit<RecordCheck, "checked_at">): RecordCheck => ({ ...check, checked_at: now });
  const dkimKey = domain.dkim_public_key ?? "";
  const records: CheckedRecords = {
    ownership: stamp(judge(ownership, (v) => v.trim() === ownershipValue(domain))),
    dkim: stamp(
      judge(
        dkim,
        (v) => tags(v).get("p") === dkimKey && dkimKey !== "",
        (v) => /(^|;)\s*(v=DKIM1|p=)/i.test(v),
      ),
    ),
    return_path: stamp(
      judge(
        { values: mx.values.map((r) => `${r.priority} ${r.exchange}`), error: mx.error },
        (v) => v.split(" ")[1] === expected.find((r) => r.purpose === "return_path")!.value,
      ),
    ),
    return_path_spf: stamp(judge(spf, spfMatches, isSpf)),
    dmarc: stamp(judge(dmarc, (v) => isDmarc(v) && dmarcRecords.length === 1, isDmarc)),
    ...(cname && { tracking: stamp(judge(cname, (v) => v === trackingTarget())) }),
  };
  const warnings: DomainWarning[] = [];
  if (spfRecords.length > 1) {
    warnings.push({
      code: "SPF_CONFLICT",
      message: `${host} has ${spfRecords.length} SPF records; receivers treat that as a permanent error (RFC 7208 §3.2). Keep one: ours, or merge "${env.relaySpf}" into yours.`,
      found: spfRecords,
    });
  } else if (spfRecords.length === 1 && records.return_path_spf.status !== "verified") {
    warnings.push({
      code: "SPF_CONFLICT",
      message: `${host} already has an SPF record that does not authorize our relay. Do not add a second one: replace it with ours, or add "${env.relaySpf}" to it.`,
      found: spfRecords,
    });
  }
  if (dmarcRecords.length > 1) {
    warnings.push({
      code: "DMARC_MULTIPLE",
      message: `_dmarc.${domain.name} has ${dmarcRecords.length} DMARC records; receivers then ignore all of them. Keep one.`,
      found: dmarcRecords,
    });
  }
  return { records, warnings };
}

/**
 * A record seen verified stays verified when a later lookup could not tell (a timeout, a failing
 * server): only a definite answer (the name or record is gone, or holds something else) takes it away.
 */
export function mergeChecks(previous: RecordChecks, next: Awaited<ReturnType<typeof checkRecords>>): CheckedRecords {
  const merged = { ...next.records };
  for (const purpose of Object.keys(merged) as RecordPurpose[]) {
    const before = previous.records?.[purpose];
    const now = merged[purpose]!;
    if (before?.status === "verified" && now.status === "pending" && !definiteAbsence(now.reason) && now.reason !== "no matching record found") {
      merged[purpose] = { ...before, reason: now.reason, checked_at: now.checked_at };
    }
  }
  return merged;
}

/** The statuses as every record verified: what an operator's `domain:create --verified` vouches for. */
export function vouchedChecks(domain: DomainFields): RecordChecks {
  const now = new Date().toISOString();
  const records: Partial<Record<RecordPurpose, RecordCheck>> = {};
  for (const record of expectedRecords(domain))
    records[record.purpose] = { status: "verified", found: [record.value], reason: "vouched for by an operator", checked_at: now };
  return { records, warnings: [] };
}

export const readChecks = (value: unknown): RecordChecks => (value && typeof value === "object" && !Array.isArray(value) ? (value as RecordChecks) : {});
