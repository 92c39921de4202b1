import { Prisma } from "@/lib/db";
import type { TopicSubscription } from "@/lib/generated/prisma/enums";

/**
 * The one rule of topics (decisions.md, "Consent"): a contact's own choice when it made one; else
 * the topic's default, where `opt_out` means it receives the topic's mail until it unsubscribes from
 * it and `opt_in` means it receives nothing of the topic until it subscribes. The fan-out, sequence
 * steps, the engine's last check, counts and pages all decide with this or its SQL twin below.
 */
export function receivesTopic(choice: boolean | null | undefined, defaultSubscription: TopicSubscription): boolean {
  return choice ?? defaultSubscription === "opt_out";
}

/**
 * The same rule as a SQL condition on `c` (contacts) for one topic: true when the contact receives
 * the topic's mail. A topic deleted since is nobody's: false.
 */
export function receivesTopicSql(topicId: string): Prisma.Sql {
  return Prisma.sql`COALESCE(
    (SELECT ct.subscribed FROM contact_topics ct
      WHERE ct.contact_id = c.id AND ct.topic_id = ${topicId}::uuid AND ct.organization_id = c.organization_id),
    (SELECT t.default_subscription = 'opt_out' FROM topics t WHERE t.id = ${topicId}::uuid AND t.organization_id = c.organization_id),
    false)`;
}
