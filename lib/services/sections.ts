import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";
import type { EmailDocument } from "@/lib/email-doc/document";
import type { Section } from "@/lib/generated/prisma/client";
import type { CursorParams } from "@/lib/schemas/pagination";
import { MAX_SECTIONS, type SectionInput, type SectionRecord, type UpdateSectionInput } from "@/lib/schemas/sections";
import { cursorPage } from "./cursor-page";

const serializeSection = (s: Section): SectionRecord => ({
  id: s.id,
  name: s.name,
  kind: s.kind,
  content_json: s.content_json as EmailDocument,
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});

/** Saves blocks for reuse; an organization keeps at most MAX_SECTIONS (a picker lists them all). */
export async function createSection(ctx: OrgContext, input: SectionInput) {
  const row = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('sections:' || ${ctx.organizationId}))`;
    const count = await tx.section.count({ where: { organization_id: ctx.organizationId } });
    if (count >= MAX_SECTIONS) throw new AppError("CONFLICT", `An organization keeps at most ${MAX_SECTIONS} saved sections: delete one first`);
    return tx.section.create({
      data: { organization_id: ctx.organizationId, name: input.name, kind: input.kind ?? "content", content_json: input.content_json as Prisma.InputJsonValue },
    });
  });
  return serializeSection(row);
}

export async function listSections(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.section.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.section.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serializeSection) };
}

export async function updateSection(ctx: OrgContext, id: string, input: UpdateSectionInput) {
  const data = { name: input.name, kind: input.kind, content_json: input.content_json as Prisma.InputJsonValue | undefined };
  const { count } = await db.section.updateMany({ where: { id, organization_id: ctx.organizationId }, data });
  if (count === 0) throw notFound("Section");
  return serializeSection(await db.section.findFirstOrThrow({ where: { id, organization_id: ctx.organizationId } }));
}

export async function deleteSection(ctx: OrgContext, id: string) {
  const { count } = await db.section.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Section");
  return { success: true };
}
