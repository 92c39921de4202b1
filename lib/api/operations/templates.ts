import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from "@/lib/services/templates";
import { createTemplateContract, listTemplatesContract, getTemplateContract, updateTemplateContract, deleteTemplateContract } from "@/lib/contracts/templates";

export const createTemplateOperation = defineOperation({
  ...createTemplateContract,
  handler: (ctx, { body }) => createTemplate(ctx, body),
});

export const listTemplatesOperation = defineOperation({
  ...listTemplatesContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { page }) => listTemplates(ctx, page),
});

export const getTemplateOperation = defineOperation({
  ...getTemplateContract,
  handler: (ctx, { params }) => getTemplate(ctx, params.id),
});

export const updateTemplateOperation = defineOperation({
  ...updateTemplateContract,
  handler: (ctx, { params, body }) => updateTemplate(ctx, params.id, body),
});

export const deleteTemplateOperation = defineOperation({
  ...deleteTemplateContract,
  handler: (ctx, { params }) => deleteTemplate(ctx, params.id),
});

export const templatesOperations = [createTemplateOperation, listTemplatesOperation, getTemplateOperation, updateTemplateOperation, deleteTemplateOperation];
