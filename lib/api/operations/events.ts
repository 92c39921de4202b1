import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { listContactEventsContract, recordEventBatchContract, recordEventContract } from "@/lib/contracts/events";
import { listContactEvents, recordCustomEvent, recordCustomEventBatch } from "@/lib/services/events";

export const recordEventOperation = defineOperation({
  ...recordEventContract,
  handler: (ctx, { body }) => recordCustomEvent(ctx, body),
});

export const recordEventBatchOperation = defineOperation({
  ...recordEventBatchContract,
  handler: (ctx, { body }) => recordCustomEventBatch(ctx, body.events),
});

export const listContactEventsOperation = defineOperation({
  ...listContactEventsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { params, page }) => listContactEvents(ctx, params.id, page),
});

export const eventsOperations = [recordEventOperation, recordEventBatchOperation, listContactEventsOperation];
