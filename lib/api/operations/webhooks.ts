import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams, parseOptionalCursorParams } from "@/lib/api/pagination";
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, toggleWebhook, updateWebhook } from "@/lib/services/webhooks";
import { getWebhookDelivery, listWebhookDeliveries, replayWebhookDelivery, testWebhook } from "@/lib/services/webhook-deliveries";
import {
  createWebhookContract,
  listWebhooksContract,
  getWebhookContract,
  updateWebhookContract,
  deleteWebhookContract,
  toggleWebhookContract,
  listWebhookDeliveriesContract,
  getWebhookDeliveryContract,
  testWebhookContract,
  replayWebhookDeliveryContract,
} from "@/lib/contracts/webhooks";

export const createWebhookOperation = defineOperation({
  ...createWebhookContract,
  handler: (ctx, { body }) => createWebhook(ctx, body),
});

export const listWebhooksOperation = defineOperation({
  ...listWebhooksContract,
  page: (search) => parseOptionalCursorParams(search),
  handler: (ctx, { page }) => listWebhooks(ctx, page),
});

export const getWebhookOperation = defineOperation({
  ...getWebhookContract,
  handler: (ctx, { params }) => getWebhook(ctx, params.id),
});

export const updateWebhookOperation = defineOperation({
  ...updateWebhookContract,
  handler: (ctx, { params, body }) => updateWebhook(ctx, params.id, body),
});

export const deleteWebhookOperation = defineOperation({
  ...deleteWebhookContract,
  handler: (ctx, { params }) => deleteWebhook(ctx, params.id),
});

export const toggleWebhookOperation = defineOperation({
  ...toggleWebhookContract,
  handler: (ctx, { params }) => toggleWebhook(ctx, params.id),
});

export const listWebhookDeliveriesOperation = defineOperation({
  ...listWebhookDeliveriesContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { params, page }) => listWebhookDeliveries(ctx, params.id, page),
});

export const getWebhookDeliveryOperation = defineOperation({
  ...getWebhookDeliveryContract,
  handler: (ctx, { params }) => getWebhookDelivery(ctx, params.id, params.deliveryId),
});

export const testWebhookOperation = defineOperation({
  ...testWebhookContract,
  handler: (ctx, { params }) => testWebhook(ctx, params.id),
});

export const replayWebhookDeliveryOperation = defineOperation({
  ...replayWebhookDeliveryContract,
  handler: (ctx, { params }) => replayWebhookDelivery(ctx, params.id, params.deliveryId),
});

export const webhooksOperations = [
  createWebhookOperation,
  listWebhooksOperation,
  getWebhookOperation,
  updateWebhookOperation,
  deleteWebhookOperation,
  toggleWebhookOperation,
  listWebhookDeliveriesOperation,
  getWebhookDeliveryOperation,
  testWebhookOperation,
  replayWebhookDeliveryOperation,
];
