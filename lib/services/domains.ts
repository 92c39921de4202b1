import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { OrgContext } from "@/lib/api/context";
import { AppError, invalidField, notFound } from "@/lib/api/errors";
import { cursorPage, type CursorParams } from "@/lib/api/pagination";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { lookupTxt } from "@/lib/dns/lookup-txt";
import type { Domain } from "@/lib/generated/prisma/client";
import { domainName, type CreateDomainInput, type DnsRecord } from "@/lib/schemas/domains";
import { recordAudit } from "./audit-log";

const generateRsaKeyPair = promisify(generateKeyPair);

const ownershipName = (domain: Pick<Domain, "name">) => `_mailplatform.${domain.name}`;
const ownershipValue = (domain: Pick<Domain, "verification_token">) => `mailplatform-verification=${domain.verification_token}`;

function records(domain: Domain): DnsRecord[] {
  const ownership: DnsRecord = { type: "TXT", name: ownershipName(domain), value: ownershipValue(domain), purpose: "ownership" };
  const spf: DnsRecord = { type: "TXT", name: domain.name, value: "v=spf1 a mx ~all", purpose: "spf" };
  if (!domain.dkim_public_key) return [ownership, spf];
  const dkim: DnsRecord = {
    type: "TXT",
    name: `${domain.dkim_selector}._domainkey.${domain.name}`,
    value: `v=DKIM1; k=rsa; p=${domain.dkim_public_key}`,
    purpose: "dkim",
  };
  return [ownership, dkim, spf];
}

const serialize = (domain: Domain) => ({
  id: domain.id,
  organization_id: domain.organization_id,
  name: domain.name,
  status: domain.status,
  records: records(domain),
  verified_at: domain.verified_at,
  last_checked_at: domain.last_checked_at,
  created_at: domain.created_at,
  updated_at: domain.updated_at,
});

const conflict = (name: string) =>
  new AppError("CONFLICT", `${name} is already a domain of this organization`, [{ path: "name", message: "is already added" }]);

/**
 * Adds a domain with a fresh ownership token and DKIM key pair (the private key sealed).
 * The name is normalized here too, for callers other than the API. `verified` is for operators (the
 * command line), who vouch for the domain themselves.
 */
export async function addDomain(organizationId: string, rawName: string, options: { verified?: boolean } = {}) {
  const parsed = domainName.safeParse(rawName);
  if (!parsed.success) throw invalidField("name", parsed.error.issues[0].message);
  const name = parsed.data;
  const exists = await db.domain.findFirst({ where: { organization_id: organizationId, name }, select: { id: true } });
  if (exists) throw conflict(name);
  const { publicKey, privateKey } = await generateRsaKeyPair("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  try {
    const row = await db.domain.create({
      data: {
        organization_id: organizationId,
        name,
        verification_token: randomBytes(20).toString("hex"),
        dkim_public_key: publicKey.toString("base64"),
        dkim_private_key_encrypted: sealSecret(privateKey),
        ...(options.verified && { status: "verified", verified_at: new Date() }),
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
  const domain = await addDomain(ctx.organizationId, input.name);
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

export async function deleteDomain(ctx: OrgContext, id: string) {
  const { count } = await db.domain.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Domain");
  await recordAudit(ctx, { action: "domain.deleted", target: { type: "domain", id } });
  return { success: true };
}

/**
 * Looks up the ownership TXT record. Found: the domain is verified. Not found: its status stays as
 * it was (a verified domain is not dropped for one failed lookup), and the answer says what was seen.
 */
export async function verifyDomain(ctx: OrgContext, id: string) {
  const domain = await findDomain(ctx, id);
  const checkedName = ownershipName(domain);
  const expected = ownershipValue(domain);
  const lookup = await lookupTxt(checkedName);
  const found = lookup.values.some((value) => value.trim() === expected);
  const now = new Date();
  const { count } = await db.domain.updateMany({
    where: { id, organization_id: ctx.organizationId },
    data: found ? { status: "verified", verified_at: domain.verified_at ?? now, last_checked_at: now } : { last_checked_at: now },
  });
  if (count === 0) throw notFound("Domain");
  if (found && domain.status !== "verified") await recordAudit(ctx, { action: "domain.verified", target: { type: "domain", id }, details: { name: domain.name } });
  const reason = found
    ? null
    : (lookup.error ?? (lookup.values.length ? "TXT records were found, but none has the expected value" : "no TXT record found"));
  return {
    ...(await getDomain(ctx, id)),
    verification: { found, checked_name: checkedName, expected_value: expected, reason },
  };
}
