import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { domainOf } from "@/lib/domain/addresses";

/** A sender address must be at a verified domain of the organization (400 DOMAIN_NOT_VERIFIED). */
export async function assertVerifiedSenderDomain(ctx: OrgContext, email: string, path: string): Promise<void> {
  const domain = await db.domain.findFirst({
    where: { organization_id: ctx.organizationId, name: domainOf(email), status: "verified" },
    select: { id: true },
  });
  if (!domain) {
    throw new AppError("DOMAIN_NOT_VERIFIED", `${domainOf(email)} is not a verified domain of this organization`, [
      { path, message: "must be at a verified domain" },
    ]);
  }
}
