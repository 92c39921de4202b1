import { defineOperation } from "@/lib/api/operation";
import { cancelBroadcast, pauseBroadcast, resumeBroadcast, sendBroadcast } from "@/lib/services/broadcast-sending";
import { getBroadcastSendingStatus } from "@/lib/services/why-not-sending";
import {
  sendBroadcastContract,
  cancelBroadcastContract,
  pauseBroadcastContract,
  resumeBroadcastContract,
  broadcastSendingStatusContract,
} from "@/lib/contracts/broadcast-sending";

export const sendBroadcastOperation = defineOperation({
  ...sendBroadcastContract,
  handler: (ctx, { params, body }) => sendBroadcast(ctx, params.id, body),
});

export const cancelBroadcastOperation = defineOperation({
  ...cancelBroadcastContract,
  handler: (ctx, { params }) => cancelBroadcast(ctx, params.id),
});

export const pauseBroadcastOperation = defineOperation({
  ...pauseBroadcastContract,
  handler: (ctx, { params }) => pauseBroadcast(ctx, params.id),
});

export const resumeBroadcastOperation = defineOperation({
  ...resumeBroadcastContract,
  handler: (ctx, { params }) => resumeBroadcast(ctx, params.id),
});

export const broadcastSendingStatusOperation = defineOperation({
  ...broadcastSendingStatusContract,
  handler: (ctx, { params }) => getBroadcastSendingStatus(ctx, params.id),
});

export const broadcastSendingOperations = [
  sendBroadcastOperation,
  cancelBroadcastOperation,
  pauseBroadcastOperation,
  resumeBroadcastOperation,
  broadcastSendingStatusOperation,
];
