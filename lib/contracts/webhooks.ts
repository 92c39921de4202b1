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
    "It starts enabled; its `secret` is in this answer only. A URL whose host is or resolves to a loopback, private, link-local, CGNAT, metadata or reserved address is 400 unless the operator allows it (ALLOWED_PRIVATE_HOSTS), and checked again at every delivery.",
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
  description: "The body sent, and for each attempt the request headers, the answer's status and first 2 KB, the error and the duration.",
  auth: "member",
  params: webhookDeliveryParams,
  response: webhookDeliveryDetail,
  errors: ["NOT_FOUND"],
});

// The two below make the server POST to the webhook's URL while the request waits (10 s at most).
const sendsNow = "Answered once tried (10 s at most), with the delivery's log; limited per webhook and organization each hour (429).";

export const testWebhookContract = defineContract({
  method: "POST",
  path: "/v1/webhooks/{id}/test",
  tag,
  summary: "Send a test event",
  description: `Delivers a signed \`webhook.test\` event once, never retried, also to a disabled webhook. ${sendsNow}`,
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
    "Delivers it again now (same `webhook-id` and body, signed anew) as one more attempt: a success marks it `succeeded`, a failure changes " +
    `nothing else. 409 when the webhook is disabled. ${sendsNow}`,
  auth: "member",
  params: webhookDeliveryParams,
  response: webhookDeliveryDetail,
  errors: ["NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
});
