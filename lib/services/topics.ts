import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db } from "@/lib/db";
import type { Topic } from "@/lib/generated/prisma/client";
import type { CreateTopicInput, UpdateTopicInput } from "@/lib/schemas/topics";
import { topicSubscriberCounts } from "@/lib/audience/topic-counts";

const serializeTopic = (t: Topic, counts: Map<string, number>) => ({
  id: t.id,
  organization_id: t.organization_id,
  name: t.name,
  description: t.description,
  default_subscription: t.default_subscription,
  subscribers_count: counts.get(t.id) ?? 0,
  created_at: t.created_at,
  updated_at: t.updated_at,
});

async function serializeTopics(ctx: OrgContext, rows: Topic[]) {
  const counts = await topicSubscriberCounts(db, ctx.organizationId, rows);
  return rows.map((row) => serializeTopic(row, counts));
}

export async function createTopic(ctx: OrgContext, input: CreateTopicInput) {
  const row = await db.topic.create({ data: { ...input, organization_id: ctx.organizationId } });
  return (await serializeTopics(ctx, [row]))[0];
}

export async function listTopics(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.topic.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.topic.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: await serializeTopics(ctx, result.data) };
}

export async function getTopic(ctx: OrgContext, id: string) {
  const row = await db.topic.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Topic");
  return (await serializeTopics(ctx, [row]))[0];
}

export async function updateTopic(ctx: OrgContext, id: string, input: UpdateTopicInput) {
  const { count } = await db.topic.updateMany({ where: { id, organization_id: ctx.organizationId }, data: input });
  if (count === 0) throw notFound("Topic");
  return getTopic(ctx, id);
}

export async function deleteTopic(ctx: OrgContext, id: string) {
  const { count } = await db.topic.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Topic");
  return { success: true };
}
