/**
 * Who recorded an event. `api` is the one source of custom events (`POST /v1/events`): nothing
 * else records under it, so consumers that only announce built-in facts (webhooks) skip it.
 */
export type EventSource =
  | "api"
  | "contacts"
  | "import"
  | "sending"
  | "feedback"
  | "tracking"
  | "replies"
  | "unsubscribe"
  | "broadcasts"
  | "domains"
  | "inboxes"
  | "automation"
  /** A signup form: its submissions and their confirmations. */
  | "forms"
  /** A contact's own choices on its preference page. */
  | "preferences"
  /** An announcement made without a more specific recorder (emitEvent). */
  | "system";

/** The source of custom events, sent by the tenant's application. */
export const CUSTOM_EVENT_SOURCE = "api" satisfies EventSource;

/** One fact to record, as a recorder knows it. */
export type NewEvent = {
  organizationId: string;
  name: string;
  source: EventSource;
  contactId?: string | null;
  /** The fact's own details: what the events API and the timeline show, and (for `email.*`) what webhooks add to the email's fields. */
  properties?: Record<string, unknown>;
  emailId?: string | null;
  broadcastId?: string | null;
  automationId?: string | null;
  /** An open or click made by a program. */
  machine?: boolean;
  /** When it happened; the recording transaction's time when not given. */
  occurredAt?: Date;
  /**
   * What webhooks announce as `data`, when it cannot be read back from the rows the event names at
   * delivery: the contact as it was (`contact.*`), a broadcast's totals, a domain's record.
   */
  payload?: unknown;
};

/** An event a dispatcher claimed, as consumers receive it (properties and payload are read by those that need them). */
export type ClaimedEvent = {
  id: string;
  organization_id: string;
  contact_id: string | null;
  name: string;
  source: string;
  email_id: string | null;
  broadcast_id: string | null;
  automation_id: string | null;
  occurred_at: Date;
};
