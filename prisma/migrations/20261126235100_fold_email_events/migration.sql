-- email_events (an email's log: sent, delivered, opened, …) folds into events: every fact is
-- recorded once. Each row keeps its id and time and gets the built-in event's name, the email's
-- contact and broadcast, and as properties what the event's webhook adds to the email's fields
-- (lib/webhooks/announce.ts). They were announced when recorded: no outbox rows.
INSERT INTO "events" ("id", "organization_id", "contact_id", "name", "properties", "source", "email_id", "broadcast_id", "machine", "occurred_at", "created_at")
SELECT ev."id", ev."organization_id", em."contact_id",
  CASE ev."type"
    WHEN 'soft_bounced' THEN 'email.bounced'
    WHEN 'unsubscribed' THEN 'contact.unsubscribed'
    ELSE 'email.' || ev."type"
  END,
  CASE ev."type"
    WHEN 'sent' THEN '{}'::jsonb
    WHEN 'delivered' THEN jsonb_build_object('delivery', jsonb_build_object('status', ev."data"->'status', 'message', ev."data"->'diagnostic', 'source', ev."data"->'source'))
    WHEN 'soft_bounced' THEN jsonb_build_object('bounce', jsonb_build_object('type', 'soft', 'status', ev."data"->'status', 'message', ev."data"->'diagnostic', 'source', ev."data"->'source'))
    WHEN 'bounced' THEN CASE WHEN ev."data" ? 'code'
      THEN jsonb_build_object('bounce', jsonb_build_object('type', 'hard', 'code', ev."data"->'code', 'message', ev."data"->'reason'))
      ELSE jsonb_build_object('bounce', jsonb_build_object('type', 'hard', 'status', ev."data"->'status', 'message', ev."data"->'diagnostic', 'source', ev."data"->'source'))
    END
    WHEN 'complained' THEN jsonb_build_object('complaint', jsonb_build_object('feedback_type', ev."data"->'diagnostic', 'source', ev."data"->'source'))
    WHEN 'opened' THEN jsonb_build_object('opened_at', coalesce(ev."data"->'at', to_jsonb(ev."created_at")),
      'first_open', NOT ev."machine" AND ev."created_at" = em."opened_at", 'machine', ev."machine")
    WHEN 'clicked' THEN jsonb_build_object('link', ev."data"->'url', 'clicked_at', coalesce(ev."data"->'at', to_jsonb(ev."created_at")),
      'first_click', NOT ev."machine" AND ev."created_at" = em."clicked_at", 'machine', ev."machine")
    WHEN 'replied' THEN jsonb_build_object('reply', ev."data")
    WHEN 'unsubscribed' THEN jsonb_build_object('reason', 'link')
    ELSE ev."data"
  END,
  CASE ev."type"
    WHEN 'sent' THEN 'sending' WHEN 'failed' THEN 'sending'
    WHEN 'opened' THEN 'tracking' WHEN 'clicked' THEN 'tracking'
    WHEN 'replied' THEN 'replies' WHEN 'unsubscribed' THEN 'unsubscribe'
    WHEN 'bounced' THEN CASE WHEN ev."data" ? 'code' THEN 'sending' ELSE 'feedback' END
    ELSE 'feedback'
  END,
  ev."email_id", coalesce(ev."broadcast_id", em."broadcast_id"), ev."machine", ev."created_at", ev."created_at"
FROM "email_events" ev
JOIN "emails" em ON em."id" = ev."email_id";

-- DropForeignKey
ALTER TABLE "email_events" DROP CONSTRAINT "email_events_email_id_fkey";

-- DropTable
DROP TABLE "email_events";

-- CreateIndex
CREATE INDEX "events_email_id_occurred_at_idx" ON "events"("email_id", "occurred_at") WHERE (email_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "events_broadcast_id_occurred_at_idx" ON "events"("broadcast_id", "occurred_at") WHERE (name IN ('email.opened', 'email.clicked'));
