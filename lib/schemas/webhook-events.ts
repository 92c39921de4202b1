import { z } from "zod";
import { dateTime, id } from "./common";
import { contact } from "./contacts";
import { domain } from "./domains";
import type { WebhookEventType } from "./webhooks";

/**
 * The payload of every webhook event, `{ type, created_at, data }`: what lib/webhooks and the
 * engine POST, and the OpenAPI document's `webhooks` section. The code building a payload is typed
 * by these (lib/webhooks/emit-event.ts), and the ones built in SQL are checked against them in tests.
 */

const emailEventData = z
  .object({
    email_id: id,
    message_id: z.string().meta({ description: "The Message-ID header of the email." }),
    broadcast_id: id.nullable(),
    contact_id: id.nullable(),
    thread_id: id.nullable(),
    from: z.string(),
    to: z.array(z.string()).meta({ description: "The email's To addresses: every one of an email sent to several, the one recipient of a broadcast's." }),
    subject: z.string(),
    tags: z.array(z.string()),
    created_at: dateTime.meta({ description: "When the email was created." }),
  })
  .meta({ id: "EmailEventData", description: "The email an `email.*` event is about." });

const source = z.enum(["smtp", "imap"]).meta({ description: "Where the report came in: the return path's SMTP listener or an inbox read over IMAP." });
const machine = z.boolean().meta({ description: "The open or click was made by a program (a mail privacy proxy, a link scanner), not a person." });

const emailDelivered = emailEventData.extend({
  delivery: z
    .object({ status: z.string().nullable().meta({ description: "The enhanced status code, e.g. 2.0.0." }), message: z.string().nullable(), source })
    .meta({ description: "The delivery status notification that reported it." }),
});

const emailBounced = emailEventData.extend({
  bounce: z.object({
    type: z.enum(["hard", "soft"]).meta({ description: "hard: permanent (5.x.x), the address is suppressed; soft: temporary (4.x.x) or delayed." }),
    code: z.number().int().optional().meta({ description: "The SMTP reply code, when the receiving server refused the email while it was sent." }),
    status: z.string().nullable().optional().meta({ description: "The enhanced status code of a delivery status notification, e.g. 5.1.1." }),
    message: z.string().nullable().meta({ description: "What the receiving server said." }),
    source: source.optional().meta({ description: "Where a delivery status notification came in; absent when the refusal came during sending." }),
  }),
});

const emailOpened = emailEventData.extend({
  opened_at: dateTime,
  first_open: z.boolean().meta({ description: "The first open of this email by a person." }),
  machine,
});

const emailClicked = emailEventData.extend({
  link: z.string().meta({ description: "The URL the link leads to." }),
  clicked_at: dateTime,
  first_click: z.boolean().meta({ description: "The first click in this email by a person." }),
  machine,
});

const emailComplained = emailEventData.extend({
  complaint: z.object({ feedback_type: z.string().nullable().meta({ description: "The ARF feedback type, e.g. abuse." }), source }),
});

const emailReplied = emailEventData.extend({
  reply: z.object({
    email_id: id.meta({ description: "The reply, stored as a received email in the thread." }),
    from: z.string(),
    subject: z.string(),
    message_id: z.string(),
    received_at: dateTime,
  }),
});

const recipientUnsubscribed = z
  .object({
    contact_id: id,
    email: z.string(),
    unsubscribed_at: dateTime,
    email_id: id.meta({ description: "The email whose link was followed or that was reported as spam." }),
    broadcast_id: id.nullable(),
    reason: z.literal("complaint").optional().meta({ description: "Present when a spam complaint unsubscribed the contact; absent for the unsubscribe link." }),
  })
  .meta({ id: "RecipientUnsubscribedData", description: "A recipient left through an email: its unsubscribe link, or a spam complaint." });

const broadcastSent = z.object({
  broadcast_id: id,
  name: z.string(),
  total_recipients: z.number().int(),
  sent_count: z.number().int(),
  bounced_count: z.number().int(),
  completed_at: dateTime,
});

const dnsRecord = domain.shape.records.element.shape;
const domainUpdated = domain.extend({
  changes: z
    .array(z.object({ purpose: dnsRecord.purpose, from: dnsRecord.status, to: dnsRecord.status }))
    .meta({ description: "The records whose status the check changed." }),
});

const inboxFailed = z.object({
  inbox_id: id,
  name: z.string(),
  from_email: z.string(),
  reason: z.string().nullable().meta({ description: "What its servers or its OAuth provider answered last (the inbox's `last_error`)." }),
  failed_at: dateTime.nullable().meta({ description: "When it turned `error`." }),
});

// A topic choice and a form submission are facts about a contact: `data` is the contact as the API
// answers it when the delivery is made, with what the fact adds (lib/webhooks/announce.ts).
const contactTopic = contact.extend({ topic_id: id.meta({ description: "The topic chosen." }), topic_name: z.string() });
const formSubmitted = contact.extend({ form_id: id.meta({ description: "The form submitted." }), form_name: z.string() });

const webhookTest = z.object({
  webhook_id: id.meta({ description: "The webhook the test was sent to." }),
  message: z.string().meta({ description: "Says that this is a test: nothing happened." }),
});

/** `email.sent` → `EmailSentEvent`: the payload's name in the OpenAPI document and the SDK. */
const schemaName = (type: string) => type.replace(/(^|[._])(\w)/g, (_, __, letter: string) => letter.toUpperCase()) + "Event";

function event<T extends string, D extends z.ZodType>(type: T, data: D, description: string) {
  return z
    .object({
      type: z.literal(type),
      created_at: dateTime.meta({ description: "When the event happened." }),
      data,
    })
    .meta({ id: schemaName(type), description });
}

/** The event POSTed when a webhook is tested (`POST /v1/webhooks/{id}/test`); webhooks do not subscribe to it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const webhookEventPayloads = {
  "email.sent": event("email.sent", emailEventData, "The receiving server accepted the email."),
  "email.delivered": event("email.delivered", emailDelivered, "A delivery status notification reported the email delivered."),
  "email.opened": event("email.opened", emailOpened, "The email was opened (its tracking pixel loaded)."),
  "email.clicked": event("email.clicked", emailClicked, "A tracked link of the email was followed."),
  "email.bounced": event("email.bounced", emailBounced, "The email bounced: refused while sent, or reported later by a delivery status notification."),
  "email.complained": event("email.complained", emailComplained, "The recipient reported the email as spam (a feedback loop report)."),
  "email.replied": event("email.replied", emailReplied, "A reply to the email arrived in its inbox."),
  "contact.created": event("contact.created", contact, "A contact was created (by the API, the dashboard, a bulk creation or an import)."),
  "contact.updated": event("contact.updated", contact, "A contact was changed."),
  "contact.subscribed": event(
    "contact.subscribed",
    contact,
    "A contact subscribed: its subscription confirmed from a double opt-in form's email, given by a form without confirmation, or turned on again through the API or the dashboard.",
  ),
  "contact.unsubscribed": event(
    "contact.unsubscribed",
    z.union([contact, recipientUnsubscribed]),
    "A contact unsubscribed. Changed through the API, the dashboard or its preference page, `data` is the contact; through an email (its link or a spam complaint), it says which email.",
  ),
  "contact.topic_subscribed": event(
    "contact.topic_subscribed",
    contactTopic,
    "A contact opted in to a topic (its preference page, a form, the API or the dashboard).",
  ),
  "contact.topic_unsubscribed": event(
    "contact.topic_unsubscribed",
    contactTopic,
    "A contact opted out of a topic (its preference page, the API or the dashboard).",
  ),
  "form.submitted": event(
    "form.submitted",
    formSubmitted,
    "A signup form was submitted: the contact it made or found (with double opt-in, unsubscribed until the confirmation).",
  ),
  "broadcast.sent": event("broadcast.sent", broadcastSent, "A broadcast finished sending."),
  "domain.updated": event("domain.updated", domainUpdated, "A check changed the status of a domain's DNS records."),
  "inbox.failed": event(
    "inbox.failed",
    inboxFailed,
    "An inbox's authentication or connection kept failing (or its OAuth grant was refused): it turned `error`, and rotation and reply polling skip it until it is tested or reconnected.",
  ),
  [WEBHOOK_TEST_EVENT]: event(WEBHOOK_TEST_EVENT, webhookTest, "A test sent from the dashboard or the API to check an endpoint."),
} satisfies Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, z.ZodType>;

/** The `data` of an event of this type, as the code building it writes it. */
export type WebhookEventData<T extends keyof typeof webhookEventPayloads> = z.input<(typeof webhookEventPayloads)[T]>["data"];
