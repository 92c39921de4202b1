import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams, parseOptionalCursorParams } from "@/lib/api/pagination";
import {
  activateAutomationContract,
  createAutomationContract,
  deleteAutomationContract,
  getAutomationContract,
  listAutomationRunsContract,
  listAutomationsContract,
  pauseAutomationContract,
  updateAutomationContract,
} from "@/lib/contracts/automations";
import { listAutomationRuns } from "@/lib/services/automation-runs";
import {
  activateAutomation,
  archiveAutomation,
  createAutomation,
  getAutomation,
  listAutomations,
  pauseAutomation,
  updateAutomation,
} from "@/lib/services/automations";

export const createAutomationOperation = defineOperation({ ...createAutomationContract, handler: (ctx, { body }) => createAutomation(ctx, body) });

export const listAutomationsOperation = defineOperation({
  ...listAutomationsContract,
  page: (search) => parseOptionalCursorParams(search),
  handler: (ctx, { page }) => listAutomations(ctx, page),
});

export const getAutomationOperation = defineOperation({ ...getAutomationContract, handler: (ctx, { params }) => getAutomation(ctx, params.id) });

export const updateAutomationOperation = defineOperation({
  ...updateAutomationContract,
  handler: (ctx, { params, body }) => updateAutomation(ctx, params.id, body),
});

export const deleteAutomationOperation = defineOperation({ ...deleteAutomationContract, handler: (ctx, { params }) => archiveAutomation(ctx, params.id) });

export const activateAutomationOperation = defineOperation({
  ...activateAutomationContract,
  handler: (ctx, { params }) => activateAutomation(ctx, params.id),
});

export const pauseAutomationOperation = defineOperation({ ...pauseAutomationContract, handler: (ctx, { params }) => pauseAutomation(ctx, params.id) });

export const listAutomationRunsOperation = defineOperation({
  ...listAutomationRunsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { params, query, page }) => listAutomationRuns(ctx, params.id, query, page),
});

export const automationsOperations = [
  createAutomationOperation,
  listAutomationsOperation,
  getAutomationOperation,
  updateAutomationOperation,
  deleteAutomationOperation,
  activateAutomationOperation,
  pauseAutomationOperation,
  listAutomationRunsOperation,
];
