import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { createFormContract, deleteFormContract, getFormContract, listFormsContract, updateFormContract } from "@/lib/contracts/forms";
import { createForm, deleteForm, getForm, listForms, updateForm } from "@/lib/services/forms";

export const createFormOperation = defineOperation({ ...createFormContract, handler: (ctx, { body }) => createForm(ctx, body) });

export const listFormsOperation = defineOperation({
  ...listFormsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { page }) => listForms(ctx, page),
});

export const getFormOperation = defineOperation({ ...getFormContract, handler: (ctx, { params }) => getForm(ctx, params.id) });

export const updateFormOperation = defineOperation({ ...updateFormContract, handler: (ctx, { params, body }) => updateForm(ctx, params.id, body) });

export const deleteFormOperation = defineOperation({ ...deleteFormContract, handler: (ctx, { params }) => deleteForm(ctx, params.id) });

export const formsOperations = [createFormOperation, listFormsOperation, getFormOperation, updateFormOperation, deleteFormOperation];
