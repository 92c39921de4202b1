import { db } from "@/lib/db";
import { readPreferenceToken } from "@/lib/sending/preference-token";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { recordConsentEvents } from "./consent-events";
import { chooseTopics, topicsOfContact, type ContactTopicState } from "./contact-topics";
import { serializeContact } from "./contacts";

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
    const now = new Date();
    const changed = await tx.contact.updateManyAndReturn({
      where: { id: found.id, organization_id: organizationId, subscribed: true },
      data: { subscribed: false, unsubscribed_at: now },
    });
    if (changed.length === 0) return;
    await emitEvent(tx, { organizationId, type: "contact.unsubscribed", data: serializeContact(changed[0]) });
    await recordConsentEvents(tx, [{ organizationId, contactId: found.id, name: "contact.unsubscribed", source: "preferences" }]);
  });
  return true;
}
