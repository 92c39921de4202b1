import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import type { ContactProperty } from "@/lib/generated/prisma/client";
import { MAX_CONTACT_PROPERTIES, type CreateContactPropertyInput } from "@/lib/schemas/contact-properties";

const serialize = (row: ContactProperty) => ({ id: row.id, key: row.key, label: row.label, type: row.type, created_at: row.created_at });

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * Types a metadata key. Values already written stay as they are (filters read a value of another
 * type as missing); from now on every write of the key must be of the type.
 */
export async function createContactProperty(ctx: OrgContext, input: CreateContactPropertyInput) {
  try {
    const row = await db.$transaction(async (tx) => {
      // The organization's row is locked so two concurrent creations cannot both pass the cap.
      await tx.$queryRaw`SELECT 1 FROM organizations WHERE id = ${ctx.organizationId}::uuid FOR NO KEY UPDATE`;
      const count = await tx.contactProperty.count({ where: { organization_id: ctx.organizationId } });
      if (count >= MAX_CONTACT_PROPERTIES) throw invalidField("key", `an organization has at most ${MAX_CONTACT_PROPERTIES} properties`);
      return tx.contactProperty.create({
        data: { organization_id: ctx.organizationId, key: input.key, label: input.label ?? input.key, type: input.type },
      });
    });
    return serialize(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", `A property ${input.key} already exists`, [{ path: "key", message: "exists already" }]);
    throw error;
  }
}

/** Every property of the organization, by key. */
export async function listContactProperties(ctx: OrgContext) {
  const rows = await db.contactProperty.findMany({ where: { organization_id: ctx.organizationId }, orderBy: { key: "asc" } });
  return { object: "list" as const, has_more: false, data: rows.map(serialize) };
}

/** Removes the type; the values stay in contacts' metadata as free text. */
export async function deleteContactProperty(ctx: OrgContext, id: string) {
  const { count } = await db.contactProperty.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Contact property");
  return { success: true };
}
