import { broadcast } from "@/lib/schemas/broadcasts";
import { broadcastSendingStatus, sendBroadcastInput } from "@/lib/schemas/broadcast-sending";
import { idParams } from "@/lib/schemas/common";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Broadcasts";

export const sendBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/send",
  tag,
  summary: "Send or schedule a broadcast",
  description:
    "A draft or scheduled broadcast becomes `scheduled` for `scheduled_at` (now when omitted; calling again reschedules), then `sending` → `sent` (or `failed` with `failure_reason`). Each recipient gets one email: the segment's subscribed contacts, minus suppressed addresses and those opted out of its topic. Needs a sender, content and a segment with recipients (else 400 BROADCAST_NOT_SENDABLE, `details` naming each); without inboxes `from_email` must be at a verified domain, and every inbox named must be verified, checked again when a scheduled broadcast starts (else `failed`). A rotation's recipients are spread evenly over its inboxes. Every email carries an unsubscribe link and one-click `List-Unsubscribe` (RFC 8058). Temporary SMTP failures are retried after 1, 5, 15, 60, 240 and 720 minutes; a permanent one bounces the email and suppresses the address.",
  auth: "member",
  params: idParams,
  body: sendBroadcastInput,
  response: broadcast,
  errors: ["VALIDATION_ERROR", "BROADCAST_NOT_SENDABLE", "BROADCAST_NOT_EDITABLE", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED", "NOT_FOUND"],
});

export const cancelBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/cancel",
  tag,
  summary: "Cancel a broadcast",
  description:
    "A scheduled, sending or paused broadcast becomes `cancelled`; its emails not yet handed to an SMTP server are cancelled within seconds, those already handed finish and are counted.",
  auth: "member",
  params: idParams,
  response: broadcast,
  errors: ["BROADCAST_NOT_CANCELLABLE", "NOT_FOUND"],
});

export const pauseBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/pause",
  tag,
  summary: "Pause a sending broadcast",
  description:
    "A `sending` broadcast becomes `paused` (`paused_reason` `manual`): its emails not yet handed to an SMTP server, follow-ups included, stay `queued` and are not sent until it resumes (sending stops within seconds); those already handed finish and are counted. A breaker may pause it too (`bounce_rate`, `complaint_rate`).",
  auth: "member",
  params: idParams,
  response: broadcast,
  errors: ["BROADCAST_NOT_PAUSABLE", "NOT_FOUND"],
});

export const resumeBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/resume",
  tag,
  summary: "Resume a paused broadcast",
  description:
    "A `paused` broadcast becomes `sending` and continues where it stopped; nobody gets the email twice. One a breaker paused is resumed only by an admin or owner (else 403 FORBIDDEN).",
  auth: "member",
  params: idParams,
  response: broadcast,
  errors: ["BROADCAST_NOT_RESUMABLE", "NOT_FOUND", "FORBIDDEN"],
});

export const broadcastSendingStatusContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}/status",
  tag,
  summary: "Why a broadcast is or is not sending",
  description: "Its status, whether its emails can go out now, its progress, and `reasons` when it is not sending or not at full speed.",
  auth: "member",
  params: idParams,
  response: broadcastSendingStatus,
  errors: ["NOT_FOUND"],
});
