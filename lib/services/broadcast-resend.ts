import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import { reachableCondition } from "@/lib/audience/reachable";
import { denominatorSql } from "@/lib/domain/report-denominators";
import { keepStatisticsCurrent } from "@/lib/db/statistics";
import type { Broadcast } from "@/lib/generated/prisma/client";
import type { BroadcastVariant, ResendBroadcastInput } from "@/lib/schemas/broadcasts";
import { serializeBroadcast } from "./broadcasts";

const WORDS = { non_openers: "non-openers", non_clickers: "non-clickers" } as const;
// Who can be called a non-opener (non-clicker): an email that could have shown the open (click), as the report counts it.
const TRACKED = denominatorSql("e.");
const COULD_SHOW = { non_openers: Prisma.raw(TRACKED.opens), non_clickers: Prisma.raw(TRACKED.clicks) } as const;
// Writing the audience of a large broadcast is one statement that may take a while.
const TRANSACTION = { timeout: 60_000, maxWait: 10_000 };

/** The content the original's first email had: an A/B broadcast's is the winner's, where it had its own. */
function contentOf(original: Broadcast): Pick<Broadcast, "html_content" | "text_content" | "content_json" | "template_id"> {
  const variants = Array.isArray(original.variants) ? (original.variants as BroadcastVariant[]) : [];
  const winner = original.ab_winner_index === null ? undefined : variants[original.ab_winner_index];
  if (winner && (winner.html_content || winner.text_content)) {
    return { html_content: winner.html_content ?? null, text_content: winner.text_content ?? null, content_json: null, template_id: null };
  }
  const { html_content, text_content, content_json, template_id } = original;
  return { html_content, text_content, content_json, template_id };
}

/**
 * An empty audience because nothing was measured is not "everyone opened": the original's opens
 * (clicks) were not tracked at all (its switch, the organization's, or text-only mail), so a resend
 * to its non-openers would be a guess. 400 on `audience` then; an audience that is merely empty is fine.
 */
async function assertTracked(tx: Prisma.TransactionClient, original: Broadcast, audience: keyof typeof WORDS) {
  const [{ tracked }] = await tx.$queryRaw<{ tracked: number }[]>`
    SELECT count(*)::int AS tracked FROM emails e
    WHERE e.broadcast_id = ${original.id}::uuid AND e.organization_id = ${original.organization_id}::uuid AND e.sequence_position = 0
      AND ${COULD_SHOW[audience]}`;
  if (tracked === 0) {
    const what = audience === "non_openers" ? "opens" : "clicks";
    throw invalidField("audience", `the original's ${what} were not tracked, so nobody can be told a ${WORDS[audience].slice(0, -1)}`);
  }
}

/**
 * POST /v1/broadcasts/{id}/resend: a new draft for the original's recipients who did not open (or
 * click) it. Its segment (static, new) holds them as they are now: recipients of the first email
 * whose server accepted it, that could have shown the open (click) — the pixel or a tracked link
 * was in it, as the report counts (lib/domain/report-denominators.ts): of an untracked email nobody
 * knows whether it was opened — and who can still be reached. The draft remembers the original, so
 * whoever opens (clicks) it before the resend goes out is left out then too (lib/audience/reachable).
 * It keeps the original's sender, content, tracking and sending window.
 */
export async function resendBroadcast(ctx: OrgContext, id: string, input: ResendBroadcastInput) {
  const org = ctx.organizationId;
  const { row, added } = await db.$transaction(async (tx) => {
    const original = await tx.broadcast.findFirst({ where: { id, organization_id: org } });
    if (!original) throw notFound("Broadcast");
    if (!original.started_at) throw new AppError("BROADCAST_NOT_SENT", "Only a broadcast that has started sending can be resent to its non-openers");
    const words = WORDS[input.audience];
    const segment = await tx.segment.create({
      data: { organization_id: org, name: `${original.name}: ${words}`.slice(0, 200), description: `For the resend of ${original.name}`.slice(0, 1000) },
      select: { id: true },
    });
    const reachable = reachableCondition({ organizationId: org, topicId: original.topic_id, resendOf: { broadcastId: original.id, audience: input.audience } });
    const added = await tx.$executeRaw`
      INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
      SELECT DISTINCT ${segment.id}::uuid, c.id, c.organization_id
      FROM emails e JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
      WHERE e.broadcast_id = ${original.id}::uuid AND e.organization_id = ${org}::uuid AND e.sequence_position = 0
        AND e.bounced_at IS NULL AND ${COULD_SHOW[input.audience]} AND ${reachable}
      ON CONFLICT DO NOTHING`;
    if (added === 0) await assertTracked(tx, original, input.audience);
    const content = contentOf(original);
    const row = await tx.broadcast.create({
      data: {
        organization_id: org,
        created_by: ctx.userId,
        name: input.name ?? `${original.name} (resend to ${words})`.slice(0, 200),
        subject: input.subject,
        html_content: content.html_content,
        text_content: content.text_content,
        template_id: content.template_id,
        content_json: content.content_json ?? Prisma.DbNull,
        from_email: original.from_email,
        from_name: original.from_name,
        reply_to: original.reply_to,
        preview_text: original.preview_text,
        topic_id: original.topic_id,
        inbox_id: original.inbox_id,
        inbox_ids: original.inbox_ids,
        sending_speed: original.sending_speed,
        tags: original.tags,
        sequence_mode: original.sequence_mode,
        sending_window: original.sending_window ?? Prisma.DbNull,
        track_opens: original.track_opens,
        track_clicks: original.track_clicks,
        utm: original.utm ?? Prisma.DbNull,
        segment_id: segment.id,
        resend_of_id: original.id,
        resend_audience: input.audience,
      },
    });
    return { row, added };
  }, TRANSACTION);
  await keepStatisticsCurrent(["segment_contacts"], added);
  return serializeBroadcast(row);
}
