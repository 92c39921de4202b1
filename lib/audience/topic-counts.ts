import type { TopicSubscription } from "@/lib/generated/prisma/enums";
import { reachableCondition } from "./reachable";
import type { AudienceClient } from "./scope";

type CountedTopic = { id: string; default_subscription: TopicSubscription };

/**
 * How many contacts each topic reaches now: reachable contacts (reachable.ts) that receive it by
 * the rule of topics.ts. One count of the organization's reachable contacts serves every opt_out topic
 * (minus those that left it) and one grouped read of the choices serves them all, instead of a
 * count over every contact per topic (a topic list at a million contacts would take seconds).
 * topics.test.ts checks it against the rule applied contact by contact.
 */
export async function topicSubscriberCounts(client: AudienceClient, organizationId: string, topics: CountedTopic[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (topics.length === 0) return counts;
  const reachable = reachableCondition({ organizationId, topicId: null });
  const ids = topics.map((t) => t.id);
  const [choices, everyone] = await Promise.all([
    client.$queryRaw<{ topic_id: string; joined: number; left: number }[]>`
      SELECT ct.topic_id, count(*) FILTER (WHERE ct.subscribed)::int AS joined, count(*) FILTER (WHERE NOT ct.subscribed)::int AS left
      FROM contact_topics ct JOIN contacts c ON c.id = ct.contact_id
      WHERE ct.organization_id = ${organizationId}::uuid AND ct.topic_id = ANY(${ids}::uuid[]) AND ${reachable}
      GROUP BY ct.topic_id`,
    topics.some((t) => t.default_subscription === "opt_out")
      ? client.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM contacts c WHERE ${reachable}`.then((rows) => rows[0].total)
      : Promise.resolve(0),
  ]);
  const byTopic = new Map(choices.map((row) => [row.topic_id, row]));
  for (const topic of topics) {
    const made = byTopic.get(topic.id);
    counts.set(topic.id, topic.default_subscription === "opt_out" ? everyone - (made?.left ?? 0) : (made?.joined ?? 0));
  }
  return counts;
}
