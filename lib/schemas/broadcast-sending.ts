import { z } from "zod";
import { broadcastStatus } from "./broadcasts";
import { dateTime } from "./common";

export const sendBroadcastInput = z.object({
  scheduled_at: dateTime
    .nullable()
    .optional()
    .meta({ description: "When to start. Omitted or null: now. At most a minute in the past (clock skew); a later time schedules it." }),
});
export type SendBroadcastInput = z.infer<typeof sendBroadcastInput>;

const sendingReason = z.object({
  code: z.string().meta({
    description:
      "DRAFT, SCHEDULED, STARTING, PREPARING, AB_TEST_WAITING, CANCELLED, FAILED, SENT, NO_RECIPIENTS, INBOX_PAUSED, INBOX_NOT_VERIFIED, " +
      "INBOX_FAILING, INBOX_FAILED (in `error` until tested or reconnected), DAILY_LIMIT_REACHED, WAITING, RELAY_NOT_CONFIGURED, " +
      "DOMAIN_NOT_VERIFIED, WAITING_FOR_NEXT_STEP, PAUSED (by a person), PAUSED_BOUNCE_RATE, PAUSED_COMPLAINT_RATE, RECOVERING (a stopped " +
      "worker's emails, taken over at `resumes_at`), WAITING_FOR_WINDOW (held for the sending window or a business-day delay), OUT_OF_OFFICE " +
      "(follow-ups held until recipients are back), IN_OTHER_SEQUENCE (contacts in another active sales sequence, left out), COMPANY_REPLIED " +
      "(recipients whose company replied).",
  }),
  message: z.string(),
  resumes_at: dateTime.nullable().optional().meta({ description: "When the blocker lifts by itself, when known." }),
});

const count = z.number().int();

export const broadcastSendingStatus = z.object({
  status: broadcastStatus,
  sending: z.boolean().meta({ description: "True when emails of the broadcast can go out right now." }),
  reasons: z.array(sendingReason).meta({ description: "Why it is not sending (or sending slower) right now; empty when nothing holds it back." }),
  progress: z.object({
    total: count.meta({ description: "Email records of the broadcast, every sequence step included." }),
    queued: count.meta({ description: "Not sent yet: queued, scheduled or being sent." }),
    sent: count,
    bounced: count,
    failed: count,
    cancelled: count,
  }),
});
broadcastSendingStatus.register(z.globalRegistry, { id: "BroadcastSendingStatus" });
