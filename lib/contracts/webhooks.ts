import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import {
  createdWebhook,
  createWebhookInput,
  toggledWebhook,
  updateWebhookInput,
  webhook,
  webhookDelivery,
  webhookDeliveryDetail,
  webhookDeliveryParams,
} from "@/lib/schemas/webhooks";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Webhooks";

export const createWebhookContract = defineContract({
  method: "POST",
  path: "/v1/webhooks",
  tag,
  summary: "Create a webhook",
  description:
    "The webhook starts enabled. Its signing `secret` is in this answer only. A URL whose host is or resolves to a loopback, private, " +
    "link-local, CGNAT, metadata or reserved address is refused (400 naming `url`) unless the operator admits it (ALLOWED_PRIVATE_HOSTS); " +
    "every delivery checks the address again when it connects.",
  auth: "member",
  body: createWebhookInput,
  status: 201,
  response: createdWebhook,
  errors: ["VALIDATION_ERROR"],
});

export const listWebhooksContract = defineContract({
  method: "GET",
  path: "/v1/webhooks",
  tag,
  summary: "List webhooks",
  description: "Newest first. Paginated when `limit` is given; otherwise every webhook.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(webhook),
});

export const getWebhookContract = defineContract({
  method: "GET",
  path: "/v1/webhooks/{id}",
  tag,
  summary: "Retrieve a webhook",
  auth: "member",
  params: idParams,
  response: webhook,
  errors: ["NOT_FOUND"],
});

export const updateWebhookContract = defineContract({
  method: "PUT",
  path: "/v1/webhooks/{id}",
  tag,
  summary: "Update a webhook",
  description: "Changes the URL or the events; fields not given are kept. The secret stays the same. A new URL passes the same address policy as on creation.",
  auth: "member",
  params: idParams,
  body: updateWebhookInput,
  response: webhook,
  errors: ["NOT_FOUND"],
});

export const deleteWebhookContract = defineContract({
  method: "DELETE",
  path: "/v1/webhooks/{id}",
  tag,
  summary: "Delete a webhook",
  description: "Its pending deliveries are dropped.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});

export const toggleWebhookContract = defineContract({
  method: "PUT",
  path: "/v1/webhooks/{id}/toggle",
  operationId: "toggleWebhook",
  tag,
  summary: "Enable or disable a webhook",
  description: "Switches the webhook to the opposite state and answers the new one. Enabling resets its failure count.",
  auth: "member",
  params: idParams,
  response: toggledWebhook,
  errors: ["NOT_FOUND"],
});

export const listWebhookDeliveriesContract = defineContract({
  method: "GET",
  path: "/v1/webhooks/{id}/deliveries",
  tag,
  summary: "List the deliveries of a webhook",
  description: "Every delivery of an event, newest first, with its last answer or error and how long it took.",
  auth: "member",
  params: idParams,
  pageQuery: cursorQuery,
  response: listEnvelope(webhookDelivery),
  errors: ["NOT_FOUND"],
});

export const getWebhookDeliveryContract = defineContract({
  method: "GET",
  path: "/v1/webhooks/{id}/deliveries/{deliveryId}",
  tag,
  summary: "Retrieve a delivery",
  description:
    "The delivery log of one event: the body sent, and for each attempt the request headers (signature included), the answer's status and first 2 KB, the error and the duration.",
  auth: "member",
  params: webhookDeliveryParams,
  response: webhookDeliveryDetail,
  errors: ["NOT_FOUND"],
});

// The two below make the server POST to the webhook's URL while the request waits (10 s at most).
const sendsNow =
  "The request is answered once the attempt is over (10 s at most), with the delivery and its log, whether or not the endpoint accepted it. " +
  "Limited per webhook and per organization in each clock hour (429 with Retry-After).";

export const testWebhookContract = defineContract({
  method: "POST",
  path: "/v1/webhooks/{id}/test",
  tag,
  summary: "Send a test event",
  description: `Delivers a signed \`webhook.test\` event, also to a disabled webhook; it is tried once, never retried. ${sendsNow}`,
  auth: "member",
  params: idParams,
  status: 201,
  response: webhookDeliveryDetail,
  errors: ["NOT_FOUND", "RATE_LIMITED"],
});

export const replayWebhookDeliveryContract = defineContract({
  method: "POST",
  path: "/v1/webhooks/{id}/deliveries/{deliveryId}/replay",
  tag,
  summary: "Replay a delivery",
  description:
    "Delivers the event again now, with the same `webhook-id` and body, signed anew; the attempt joins its log and counts as one of its attempts. " +
    `A success marks it \`succeeded\`; a failure changes neither its status nor its retries. 409 when the webhook is disabled. ${sendsNow}`,
  auth: "member",
  params: webhookDeliveryParams,
  response: webhookDeliveryDetail,
  errors: ["NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
});
