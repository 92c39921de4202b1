-- A pause no longer moves its broadcast's queued emails to `scheduled` (the claim steps over a
-- paused broadcast's queued emails: lib/sending/queue-sources.ts), and a resume no longer moves
-- them back. The emails a pause of before held are queued again here, once: a broadcast's email
-- waiting for a time (a window's opening, an out-of-office return) has its scheduled_at, those a
-- pause held had none.
UPDATE "emails" SET "status" = 'queued', "updated_at" = now()
WHERE "status" = 'scheduled' AND "scheduled_at" IS NULL AND "broadcast_id" IS NOT NULL;
