/** The email fields an `email.*` webhook event carries, the same for every event type (lib/webhooks/announce.ts builds them in SQL). */
export type EmailForEvent = {
  id: string;
  message_id: string;
  broadcast_id: string | null;
  contact_id: string | null;
  thread_id: string | null;
  from_email: string;
  to_email: string;
  subject: string;
  tags: string[];
  created_at: Date;
};
