import type { OrgContext } from "@/lib/domain/context";
import { db, Prisma } from "@/lib/db";
import { emailDocument } from "@/lib/email-doc/document";
import { renderDocument } from "@/lib/email-doc/render";
import { renderContextOf } from "@/lib/email-doc/render-context";

/** About 20 ms of MJML each: a theme change re-renders at most this many documents in its request. */
const MAX_RERENDERED = 200;

type Target = { table: "templates" | "broadcasts" | "sequence_steps"; id: string; doc: unknown; updated_at: Date };

/**
 * After the brand or the postal address changed: the HTML and text of what can still be sent,
 * rendered again from its document — templates, draft and scheduled broadcasts, and the steps of
 * broadcasts not yet finished — the most recently edited first, at most MAX_RERENDERED (an older
 * one takes the brand when it is next saved). A record saved meanwhile (its document changed) is
 * left as its own save rendered it.
 */
export async function rerenderOrganizationContent(ctx: OrgContext): Promise<number> {
  const organization_id = ctx.organizationId;
  const take = MAX_RERENDERED;
  const select = { id: true, content_json: true, updated_at: true } as const;
  const orderBy = { updated_at: "desc" } as const;
  const [templates, broadcasts, steps] = await Promise.all([
    db.template.findMany({ where: { organization_id, content_json: { not: Prisma.DbNull } }, select, orderBy, take }),
    db.broadcast.findMany({ where: { organization_id, content_json: { not: Prisma.DbNull }, status: { in: ["draft", "scheduled"] } }, select, orderBy, take }),
    db.sequenceStep.findMany({
      where: { organization_id, content_json: { not: Prisma.DbNull }, broadcast: { status: { notIn: ["sent", "cancelled", "failed"] } } },
      select,
      orderBy,
      take,
    }),
  ]);
  const targets: Target[] = [
    ...templates.map((r) => ({ table: "templates" as const, id: r.id, doc: r.content_json, updated_at: r.updated_at })),
    ...broadcasts.map((r) => ({ table: "broadcasts" as const, id: r.id, doc: r.content_json, updated_at: r.updated_at })),
    ...steps.map((r) => ({ table: "sequence_steps" as const, id: r.id, doc: r.content_json, updated_at: r.updated_at })),
  ]
    .sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime())
    .slice(0, MAX_RERENDERED);
  if (targets.length === 0) return 0;
  const context = await renderContextOf(ctx);
  let done = 0;
  for (const target of targets) {
    const parsed = emailDocument.safeParse(target.doc);
    if (!parsed.success) continue;
    const { html, text } = await renderDocument(parsed.data, context);
    // updated_at stays: the record's content is what its author wrote; only its rendering followed the brand.
    done += await db.$executeRaw`
      UPDATE ${Prisma.raw(`"${target.table}"`)} SET html_content = ${html}, text_content = ${text}
      WHERE id = ${target.id}::uuid AND organization_id = ${organization_id}::uuid AND content_json = ${JSON.stringify(target.doc)}::jsonb`;
  }
  return done;
}
