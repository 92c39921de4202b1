import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { db, type DbClient } from "@/lib/db";
import { receivesTopic } from "@/lib/audience/topics";
import { MAX_TOPIC_CHOICES, type SetContactTopicsInput } from "@/lib/schemas/topics";
import { recordConsentEvents, type ConsentEventSource } from "./consent-events";

export type ContactTopicState = { topic_id: string; name: string; description: string | null; subscribed: boolean };

/** Every topic of the organization (by name) and whether the contact receives it, by the audience's rule. */
export async function topicsOfContact(client: DbClient, organizationId: string, contactId: string): Promise<ContactTopicState[]> {
  const topics = await client.topic.findMany({
    where: { organization_id: organizationId },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: MAX_TOPIC_CHOICES,
    select: {
      id: true,
      name: true,
      description: true,
      default_subscription: true,
      contacts: { where: { contact_id: contactId, organization_id: organizationId }, select: { subscribed: true } },
    },
  });
  return topics.map((t) => ({
    topic_id: t.id,
    name: t.name,
    description: t.description,
    subscribed: receivesTopic(t.contacts[0]?.subscribed, t.default_subscription),
  }));
}

/**
 * Records the contact's choices (each topic named once, of its organization, else 400 naming the
 * entry) and an event for each one that changes what it receives. The contact's row is locked, so
 * two pages saved at once cannot interleave their events. Answers the topics as they are then.
 */
export async function chooseTopics(
  tx: DbClient,
  organizationId: string,
  contactId: string,
  choices: SetContactTopicsInput,
  source: ConsentEventSource,
  path = "",
): Promise<ContactTopicState[]> {
  const seen = new Set<string>();
  choices.forEach((choice, i) => {
    const key = choice.topic_id.toLowerCase();
    if (seen.has(key)) throw invalidField(`${path}${i}.topic_id`, "names a topic already in the list");
    seen.add(key);
  });
  await tx.$queryRaw`SELECT id FROM contacts WHERE id = ${contactId}::uuid AND organization_id = ${organizationId}::uuid FOR NO KEY UPDATE`;
  const before = new Map((await topicsOfContact(tx, organizationId, contactId)).map((t) => [t.topic_id, t]));
  const owned = await tx.topic.findMany({ where: { organization_id: organizationId, id: { in: [...seen] } }, select: { id: true } });
  const ownedIds = new Set(owned.map((t) => t.id.toLowerCase()));
  const stranger = choices.findIndex((choice) => !ownedIds.has(choice.topic_id.toLowerCase()));
  if (stranger >= 0) throw invalidField(`${path}${stranger}.topic_id`, "no such topic in this organization");
  // One statement for the whole list (up to MAX_TOPIC_CHOICES rows), not a round trip per topic.
  const rows = JSON.stringify(choices.map((choice) => ({ topic_id: choice.topic_id, subscribed: choice.subscribed })));
  await tx.$executeRaw`
    INSERT INTO contact_topics (organization_id, contact_id, topic_id, subscribed, updated_at)
    SELECT ${organizationId}::uuid, ${contactId}::uuid, x.topic_id, x.subscribed, now()
    FROM jsonb_to_recordset(${rows}::jsonb) AS x(topic_id uuid, subscribed boolean)
    ON CONFLICT (contact_id, topic_id) DO UPDATE SET subscribed = EXCLUDED.subscribed, updated_at = now()
    WHERE contact_topics.subscribed IS DISTINCT FROM EXCLUDED.subscribed`;
  const changed = choices.flatMap((choice) => {
    const was = before.get(choice.topic_id.toLowerCase());
    return was && was.subscribed !== choice.subscribed ? [{ ...was, subscribed: choice.subscribed }] : [];
  });
  await recordConsentEvents(
    tx,
    changed.map((topic) => ({
      organizationId,
      contactId,
      name: topic.subscribed ? "contact.topic_subscribed" : "contact.topic_unsubscribed",
      source,
      properties: { topic_id: topic.topic_id, topic_name: topic.name },
    })),
  );
  return topicsOfContact(tx, organizationId, contactId);
}

const listed = (topics: ContactTopicState[]) => topics.map(({ topic_id, name, subscribed }) => ({ topic_id, name, subscribed }));

async function assertContact(client: DbClient, ctx: OrgContext, contactId: string) {
  const found = await client.contact.findFirst({ where: { id: contactId, organization_id: ctx.organizationId }, select: { id: true } });
  if (!found) throw notFound("Contact");
}

/** GET /v1/contacts/{id}/topics. */
export async function getContactTopics(ctx: OrgContext, contactId: string) {
  await assertContact(db, ctx, contactId);
  return listed(await topicsOfContact(db, ctx.organizationId, contactId));
}

/** PUT /v1/contacts/{id}/topics: the choices given change; the others stay. */
export async function setContactTopics(ctx: OrgContext, contactId: string, input: SetContactTopicsInput) {
  return db.$transaction(async (tx) => {
    await assertContact(tx, ctx, contactId);
    return listed(await chooseTopics(tx, ctx.organizationId, contactId, input, "contacts"));
  });
}
