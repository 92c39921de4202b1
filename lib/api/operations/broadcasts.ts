import { defineOperation } from "@/lib/api/operation";
import { parseOptionalCursorParams } from "@/lib/api/pagination";
import { createBroadcast, deleteBroadcast, getBroadcast, listBroadcasts, updateBroadcast } from "@/lib/services/broadcasts";
import { createStep, deleteStep, listSteps, updateStep } from "@/lib/services/steps";
import { resendBroadcast } from "@/lib/services/broadcast-resend";
import {
  createBroadcastContract,
  listBroadcastsContract,
  getBroadcastContract,
  updateBroadcastContract,
  deleteBroadcastContract,
  resendBroadcastContract,
  listStepsContract,
  createStepContract,
  updateStepContract,
  deleteStepContract,
} from "@/lib/contracts/broadcasts";

export const createBroadcastOperation = defineOperation({
  ...createBroadcastContract,
  handler: (ctx, { body }) => createBroadcast(ctx, body),
});

export const listBroadcastsOperation = defineOperation({
  ...listBroadcastsContract,
  page: parseOptionalCursorParams,
  handler: (ctx, { page }) => listBroadcasts(ctx, page),
});

export const getBroadcastOperation = defineOperation({
  ...getBroadcastContract,
  handler: (ctx, { params }) => getBroadcast(ctx, params.id),
});

export const updateBroadcastOperation = defineOperation({
  ...updateBroadcastContract,
  handler: (ctx, { params, body }) => updateBroadcast(ctx, params.id, body),
});

export const deleteBroadcastOperation = defineOperation({
  ...deleteBroadcastContract,
  handler: (ctx, { params }) => deleteBroadcast(ctx, params.id),
});

export const resendBroadcastOperation = defineOperation({
  ...resendBroadcastContract,
  handler: (ctx, { params, body }) => resendBroadcast(ctx, params.id, body),
});

export const listStepsOperation = defineOperation({
  ...listStepsContract,
  handler: (ctx, { params }) => listSteps(ctx, params.broadcastId),
});

export const createStepOperation = defineOperation({
  ...createStepContract,
  handler: (ctx, { params, body }) => createStep(ctx, params.broadcastId, body),
});

export const updateStepOperation = defineOperation({
  ...updateStepContract,
  handler: (ctx, { params, body }) => updateStep(ctx, params.broadcastId, params.stepId, body),
});

export const deleteStepOperation = defineOperation({
  ...deleteStepContract,
  handler: (ctx, { params }) => deleteStep(ctx, params.broadcastId, params.stepId),
});

export const broadcastsOperations = [
  createBroadcastOperation,
  listBroadcastsOperation,
  getBroadcastOperation,
  updateBroadcastOperation,
  deleteBroadcastOperation,
  resendBroadcastOperation,
  listStepsOperation,
  createStepOperation,
  updateStepOperation,
  deleteStepOperation,
];
