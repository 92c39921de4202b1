import { db } from "@/lib/db";
import { readPreferenceToken } from "@/lib/sending/preference-token";
import { consentEventsCtes } from "./consent-events";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";
import { chooseTopics, topicsOfContact, type ContactTopicState } from "./contact-topics";

export type Preferences = {
  organizationName: string;
  address: string;
  subscribed: boolean;
  topics: ContactTopicState[];
};

async function contactOf(token: string) {
  const contactId = readPreferenceToken(token);
  if (!contactId) return null;
  return db.contact.findUnique({ where: { id: contactId }, include: { organization: { select: { name: true } } } });
}

/** What the preference page shows for a token; null for a forged token or a deleted contact (404). */
export async function findPreferences(token: string): Promise<Preferences | null> {
  const contact = await contactOf(token);
  if (!contact) return null;
  return {
    organizationName: contact.organization.name,
    address: contact.email,
    subscribed: contact.subscribed,
    topics: await topicsOfContact(db, contact.organization_id, contact.id),
  };
}

// "Unsubscribe from everything", once: the contact's subscription ends and `contact.unsubscribed` is
// recorded through lib/events in the same statement, with the record as the API answers it (the
// webhooks' data, as for a change through the API). Already unsubscribed, nothing is written.
const UNSUBSCRIBE = `
  WITH c AS (
    UPDATE contacts SET subscribed = false, unsubscribed_at = now(), updated_at = now()
    WHERE organization_id = $1::uuid AND id = $2::uuid AND subscribed
    RETURNING *
  ), ${consentEventsCtes(
    "recorded",
    `SELECT c.organization_id, c.id AS contact_id, 'contact.unsubscribed' AS name, '{"reason": "preferences"}'::jsonb AS properties,
            'preferences' AS source, (${CONTACT_JSON_SQL})::jsonb AS payload
     FROM c`,
  )}
  SELECT 1`;

export type PreferenceChoices = { topics: Map<string, boolean>; unsubscribeAll: boolean };

/**
 * Saves the page's switches: each topic shown records the contact's choice (topics deleted since
 * the page was drawn are passed over), each change an event with source `preferences`; "unsubscribe
 * from everything" ends its subscription as the unsubscribe link does (`contact.unsubscribed`).
 * False for a forged token or a deleted contact.
 */
export async function savePreferences(token: string, choices: PreferenceChoices): Promise<boolean> {
  const found = await contactOf(token);
  if (!found) return false;
  const organizationId = found.organization_id;
  await db.$transaction(async (tx) => {
    const existing = new Set((await topicsOfContact(tx, organizationId, found.id)).map((t) => t.topic_id));
    const given = [...choices.topics].filter(([id]) => existing.has(id)).map(([topic_id, subscribed]) => ({ topic_id, subscribed }));
    await chooseTopics(tx, organizationId, found.id, given, "preferences");
    if (!choices.unsubscribeAll) return;
    await tx.$queryRawUnsafe(UNSUBSCRIBE, organizationId, found.id);
  });
  return true;
}
