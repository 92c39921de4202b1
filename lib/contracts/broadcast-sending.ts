import { broadcast } from "@/lib/schemas/broadcasts";
import { broadcastSendingStatus, sendBroadcastInput } from "@/lib/schemas/broadcast-sending";
import { idParams } from "@/lib/schemas/common";
import { sendingSpeedReference } from "@/lib/domain/sending-speeds";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Broadcasts";

export const sendBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/send",
  tag,
  summary: "Send or schedule a broadcast",
  description:
    "A draft or scheduled broadcast becomes `scheduled` and starts at `scheduled_at` (now when omitted); calling it again " +
    "reschedules it. At its time every recipient gets one email record: the segment's subscribed contacts, minus suppressed " +
    "addresses and, for a broadcast with a topic, contacts opted out of it. The status then goes `sending` → `sent` " +
    "(or `failed` with `failure_reason`). Needs a sender, content (HTML, text or a template) and a segment, else 400 " +
    "BROADCAST_NOT_SENDABLE with `details` naming each missing field (sending now to a segment without recipients too). " +
    "Without inboxes the organization's relay sends from `from_email`, whose domain must be verified (400 DOMAIN_NOT_VERIFIED). " +
    "Every inbox it names must be verified (400 INBOX_NOT_VERIFIED); with one `inbox_id`, `from_email` must be that inbox's own address " +
    "or at a verified domain (400 DOMAIN_NOT_VERIFIED). The same holds again when a scheduled broadcast starts (else `failed`). " +
    "Recipients of an `inbox_ids` rotation are spread evenly (shares within one email), each email with its inbox's sender. " +
    "Every email carries an unsubscribe link in its body and RFC 8058 one-click `List-Unsubscribe` headers. " +
    `${sendingSpeedReference} ` +
    "Temporary SMTP failures (4xx, connection errors) are retried after 1, 5, 15, 60, 240 and 720 minutes, then the email fails; " +
    "a permanent refusal (5xx) bounces it and suppresses the address. Only draft and scheduled broadcasts can be sent (else 400 BROADCAST_NOT_EDITABLE).",
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
    "A scheduled, sending or paused broadcast becomes `cancelled`: it will not start, and its emails not yet handed to an " +
    "SMTP server are cancelled — those already claimed by a worker within about a second, so sending stops within a few " +
    "seconds. Emails already handed to a server finish and are counted. Other statuses: 400 BROADCAST_NOT_CANCELLABLE.",
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
    "A `sending` broadcast becomes `paused` with `paused_reason` `manual` and `paused_at`. Nothing more of it is sent: its " +
    "emails not yet handed to an SMTP server wait (status `scheduled`) — those already claimed by a worker are given back " +
    "within about a second, so sending stops within a few seconds; emails already handed to a server finish and are counted. " +
    "Follow-up steps wait too. Resume it with `POST /v1/broadcasts/{id}/resume`; cancel it with `/cancel`. A broadcast may " +
    "also pause itself (`paused_reason` `bounce_rate` or `complaint_rate`). Other statuses: 400 BROADCAST_NOT_PAUSABLE.",
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
    "A `paused` broadcast becomes `sending` again and continues where it stopped: its waiting emails are queued again and a " +
    "fan-out the pause interrupted carries on. A recipient who already got the email does not get it again. " +
    "Other statuses: 400 BROADCAST_NOT_RESUMABLE. A broadcast a circuit breaker paused (`paused_reason` other than `manual`) " +
    "is resumed only by an admin or owner: a member gets 403 FORBIDDEN.",
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
  description:
    "The broadcast's status, whether emails of it can go out right now, its progress over its email records, and `reasons` " +
    "when it is not sending (or not at full speed): a draft, scheduled for later, no recipients, an inbox paused, failing or " +
    "at its daily limit (with `resumes_at`), no relay or no verified domain for it, waiting for a retry or the next sequence " +
    "step, paused (by whom or which breaker, and since when), emails being taken over from a worker that stopped (with " +
    "`resumes_at`), cancelled, failed (with the reason), or finished.",
  auth: "member",
  params: idParams,
  response: broadcastSendingStatus,
  errors: ["NOT_FOUND"],
});
