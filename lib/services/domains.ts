import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { returnPathHost } from "@/lib/domain/addresses";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db, Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import type { Domain } from "@/lib/generated/prisma/client";
import { domainName, returnPathLabel, type CreateDomainInput, type UpdateDomainInput } from "@/lib/schemas/domains";
import { emitEvent } from "@/lib/webhooks/emit-event";
import {
  checkRecords,
  expectedRecords,
  mergeChecks,
  ownershipName,
  ownershipValue,
  readChecks,
  vouchedChecks,
  type RecordChecks,
  type RecordPurpose,
} from "./domain-records";
import { recordAudit } from "./audit-log";
import { errorField, log } from "@/lib/log";

const generateRsaKeyPair = promisify(generateKeyPair);

function serialize(domain: Domain) {
  const checks = readChecks(domain.record_checks);
  return {
    id: domain.id,
    organization_id: domain.organization_id,
    name: domain.name,
    status: domain.status,
    return_path: returnPathHost(domain),
    records: expectedRecords(domain).map((record) => {
      const check = checks.records?.[record.purpose];
      return {
        ...record,
        status: check?.status ?? ("pending" as const),
        found: check?.found ?? [],
        reason: check?.reason ?? null,
        checked_at: check?.checked_at ?? null,
      };
    }),
    warnings: checks.warnings ?? [],
    dkim_signing: domain.dkim_verified_at !== null,
    tracking_subdomain: domain.tracking_subdomain,
    tracking_active: trackingActive(domain),
    verified_at: domain.verified_at,
    last_checked_at: domain.last_checked_at,
    created_at: domain.created_at,
    updated_at: domain.updated_at,
  };
}

/** Whether links and the pixel of mail from this domain use its tracking host: its CNAME seen, on a domain whose ownership is proven. */
const trackingActive = (domain: Domain) => domain.status === "verified" && domain.tracking_subdomain !== null && domain.tracking_verified_at !== null;

/** The tracking host is a CNAME, which may not share its name with the return path's MX and TXT records (RFC 1034 §3.6.2). */
function assertTrackingLabel(tracking: string | null, returnPath: string) {
  if (tracking !== null && tracking === returnPath) throw invalidField("tracking_subdomain", "must differ from the return path's label");
}

const conflict = (name: string) =>
  new AppError("CONFLICT", `${name} is already a domain of this organization`, [{ path: "name", message: "is already added" }]);

/**
 * Adds a domain with a fresh ownership token and DKIM key pair (the private key sealed).
 * The name is normalized here too, for callers other than the API. `verified` is for operators (the
 * command line), who vouch for the domain themselves.
 */
export async function addDomain(
  organizationId: string,
  rawName: string,
  options: { verified?: boolean; returnPath?: string; trackingSubdomain?: string | null } = {},
) {
  const parsed = domainName.safeParse(rawName);
  if (!parsed.success) throw invalidField("name", parsed.error.issues[0].message);
  const name = parsed.data;
  const label = returnPathLabel.safeParse(options.returnPath ?? env.returnPathLabel);
  if (!label.success) throw invalidField("return_path", label.error.issues[0].message);
  const tracking = options.trackingSubdomain ?? null;
  assertTrackingLabel(tracking, label.data);
  const exists = await db.domain.findFirst({ where: { organization_id: organizationId, name }, select: { id: true } });
  if (exists) throw conflict(name);
  const { publicKey, privateKey } = await generateRsaKeyPair("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  try {
    const fields = {
      organization_id: organizationId,
      name,
      dkim_selector: "mp1",
      return_path: label.data,
      verification_token: randomBytes(20).toString("hex"),
      dkim_public_key: publicKey.toString("base64"),
      dkim_private_key_encrypted: sealSecret(privateKey),
      tracking_subdomain: tracking,
    };
    const now = new Date();
    const row = await db.domain.create({
      data: {
        ...fields,
        // Operators vouch for every record, so the domain signs and uses its return path at once.
        ...(options.verified && {
          status: "verified",
          verified_at: now,
          dkim_verified_at: now,
          return_path_verified_at: now,
          tracking_verified_at: tracking ? now : null,
          record_checks: vouchedChecks(fields),
        }),
      },
    });
    return serialize(row);
  } catch (error) {
    // Two requests adding the same name at once: the unique index decides.
    if ((error as { code?: string }).code === "P2002") throw conflict(name);
    throw error;
  }
}

export async function createDomain(ctx: OrgContext, input: CreateDomainInput) {
  const domain = await addDomain(ctx.organizationId, input.name, { returnPath: input.return_path, trackingSubdomain: input.tracking_subdomain });
  await recordAudit(ctx, { action: "domain.created", target: { type: "domain", id: domain.id }, details: { name: domain.name } });
  return domain;
}

export async function listDomains(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.domain.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.domain.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serialize) };
}

async function findDomain(ctx: OrgContext, id: string) {
  const row = await db.domain.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Domain");
  return row;
}

export const getDomain = async (ctx: OrgContext, id: string) => serialize(await findDomain(ctx, id));

/**
 * Sets or removes the tracking subdomain. A new one starts unverified (its CNAME is checked with the
 * domain's other records): links keep the platform's host until it is seen.
 */
export async function updateDomain(ctx: OrgContext, id: string, input: UpdateDomainInput) {
  const domain = await findDomain(ctx, id);
  if (input.tracking_subdomain === undefined || input.tracking_subdomain === domain.tracking_subdomain) return serialize(domain);
  assertTrackingLabel(input.tracking_subdomain, domain.return_path);
  await db.$executeRaw`
    UPDATE domains SET tracking_subdomain = ${input.tracking_subdomain}, tracking_verified_at = NULL,
      record_checks = record_checks #- '{records,tracking}', updated_at = now()
    WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid`;
  await recordAudit(ctx, { action: "domain.updated", target: { type: "domain", id }, details: { tracking_subdomain: input.tracking_subdomain } });
  return serialize(await findDomain(ctx, id));
}

export async function deleteDomain(ctx: OrgContext, id: string) {
  const { count } = await db.domain.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Domain");
  await recordAudit(ctx, { action: "domain.deleted", target: { type: "domain", id } });
  return { success: true };
}

type Refreshed = { row: Domain; changes: { purpose: RecordPurpose; from: string; to: string }[] };

/**
 * Checks every record of the domain in DNS and stores what was seen. The ownership record makes the
 * domain verified (never unverified again by a failed check); the DKIM record switches signing on
 * and off; the return path's MX and SPF records switch VERP on and off; the tracking CNAME, links on
 * the tracking host. A status that changed is sent as a `domain.updated` webhook.
 */
async function refreshDomain(domain: Domain, attempts = 2): Promise<Refreshed> {
  const previous = readChecks(domain.record_checks);
  const next = await checkRecords(domain);
  const records = mergeChecks(previous, next);
  const checks: RecordChecks = { records, warnings: next.warnings };
  const now = new Date();
  const verified = (purpose: RecordPurpose) => records[purpose]?.status === "verified";
  const since = (purpose: RecordPurpose, current: Date | null) => (verified(purpose) ? (current ?? now) : null);
  const changes = (Object.keys(records) as RecordPurpose[])
    .map((purpose) => ({ purpose, from: previous.records?.[purpose]?.status ?? "pending", to: records[purpose]!.status }))
    .filter((change) => change.from !== change.to);
  const refreshed = await db.$transaction(async (tx) => {
    // Only over the tracking subdomain that was looked up: a CNAME seen for the old one never verifies a new one set meanwhile.
    const updated = await tx.domain.updateMany({
      where: { id: domain.id, organization_id: domain.organization_id, tracking_subdomain: domain.tracking_subdomain },
      data: {
        record_checks: checks,
        last_checked_at: now,
        dkim_verified_at: domain.dkim_public_key ? since("dkim", domain.dkim_verified_at) : null,
        return_path_verified_at: verified("return_path") && verified("return_path_spf") ? (domain.return_path_verified_at ?? now) : null,
        tracking_verified_at: since("tracking", domain.tracking_verified_at),
        ...(verified("ownership") && { status: "verified" as const, verified_at: domain.verified_at ?? now }),
      },
    });
    if (updated.count === 0) return null;
    const row = await tx.domain.findFirstOrThrow({ where: { id: domain.id, organization_id: domain.organization_id } });
    if (changes.length > 0) {
      await emitEvent(tx, { organizationId: domain.organization_id, type: "domain.updated", source: "domains", data: { ...serialize(row), changes } });
    }
    return { row, changes };
  });
  if (refreshed) return refreshed;
  const current = await db.domain.findFirst({ where: { id: domain.id, organization_id: domain.organization_id } });
  if (!current) throw notFound("Domain");
  // The tracking subdomain changed during the lookups: look again, for the one set now.
  if (attempts > 1) return refreshDomain(current, attempts - 1);
  throw new AppError("CONFLICT", "The domain changed while it was being checked; check it again");
}

/**
 * Looks up every DNS record of the domain now and answers each one's status. The ownership
 * record decides `status` as before (found: verified; not found: unchanged, and the answer says
 * what the lookup saw).
 */
export async function verifyDomain(ctx: OrgContext, id: string) {
  const domain = await findDomain(ctx, id);
  const { row } = await refreshDomain(domain);
  const ownership = readChecks(row.record_checks).records?.ownership;
  const found = ownership?.status === "verified";
  if (row.status === "verified" && domain.status !== "verified") {
    await recordAudit(ctx, { action: "domain.verified", target: { type: "domain", id }, details: { name: row.name } });
  }
  return {
    ...serialize(row),
    verification: {
      found,
      checked_name: ownershipName(row),
      expected_value: ownershipValue(row),
      reason: found
        ? null
        : ownership?.status === "mismatch"
          ? "TXT records were found, but none has the expected value"
          : (ownership?.reason ?? "no TXT record found"),
    },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The daily re-check (a worker loop): verified domains whose last check is a day old are claimed
 * (the claim moves `last_checked_at`, so two workers never check one domain at once) and checked
 * again; a record that disappeared stops signing or VERP and is sent as `domain.updated`.
 */
export async function recheckDomains(options: { intervalMs?: number; organizationId?: string; limit?: number } = {}): Promise<number> {
  const intervalMs = options.intervalMs ?? DAY_MS;
  const orgFilter = options.organizationId ? Prisma.sql`AND organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  const due = await db.$queryRaw<{ id: string; organization_id: string }[]>`
    WITH due AS (
      SELECT id FROM domains
      WHERE status = 'verified' AND (last_checked_at IS NULL OR last_checked_at <= now() - make_interval(secs => ${intervalMs / 1000}))
        ${orgFilter}
      ORDER BY last_checked_at NULLS FIRST
      LIMIT ${options.limit ?? 20}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE domains d SET last_checked_at = now() FROM due WHERE d.id = due.id
    RETURNING d.id, d.organization_id`;
  for (const { id, organization_id } of due) {
    try {
      const domain = await db.domain.findFirst({ where: { id, organization_id } });
      if (domain) await refreshDomain(domain);
    } catch (error) {
      log.warn({ domain_id: id, err: errorField(error) }, "domains: a daily re-check failed");
    }
  }
  return due.length;
}
