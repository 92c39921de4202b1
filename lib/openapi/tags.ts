/**
 * What each tag of the API reference groups, in a sentence. Every tag an operation names needs one
 * here (the document's test and `npm run openapi:lint` say which is missing).
 */
export const tagDescriptions: Record<string, string> = {
  "API keys": "Bearer tokens for programs; each acts as the member who created it.",
  "Audit log": "Who changed what in the organization, newest first.",
  Automations:
    "Flows that react to what contacts do: a trigger (an event, entering a segment), then waits, conditions, emails and changes to the contact, run once per contact.",
  Broadcasts: "Emails sent to a segment at once, with their content, sender, schedule and sending state.",
  "Contact properties": "Typed keys of contacts' metadata (string, number, boolean, date): enforced on every write, compared by type in filters.",
  Contacts: "The people an organization writes to, with their subscription, metadata and tags.",
  Domains: "Sending domains: the DNS records to publish (ownership, DKIM, return path, DMARC) and their checks.",
  Forms: "Public signup forms (hosted page, embeddable HTML, `POST /f/{id}/submit`), with double opt-in by default.",
  Emails: "Transactional emails sent one at a time, and every email the platform sent or received.",
  Events:
    "What contacts do, recorded by your application (`purchase`, `signed_up`) beside the platform's own (`email.opened`, `contact.updated`): for filters, automations and the contact's timeline.",
  Inboxes: "Sender mailboxes: the SMTP server mail leaves through and the IMAP server replies are read from.",
  Invitations: "Invitations for people to join the organization.",
  Media: "Images uploaded for emails, served by the application at unguessable URLs.",
  Members: "The people of the organization and their roles.",
  Organization: "The organization's own settings.",
  Reports: "Counts and rates of what was sent, delivered, opened, clicked, bounced and complained about.",
  Sections: "Saved parts of emails (a header, a footer) that the visual editor inserts into any email.",
  Segments: "Named groups of contacts that broadcasts are sent to: static lists, or dynamic segments whose filter is resolved when used.",
  "Sequence steps": "Follow-up emails of a broadcast, each sent a delay after the one before.",
  Suppressions: "Addresses nothing is sent to: bounces, complaints, unsubscriptions and additions by hand.",
  Templates: "Reusable content with `{{placeholders}}` for broadcasts, steps and emails.",
  Threads: "Conversations: an email, its replies, the team's comments and a draft reply.",
  Topics: "Kinds of broadcast contacts choose on their preference page: `opt_out` ones reach a contact until it leaves, `opt_in` ones once it joins.",
  Webhooks: "Endpoints that receive signed events, and the deliveries made to them.",
  "Webhook events": "The events POSTed to webhooks: one payload schema per event type.",
};
