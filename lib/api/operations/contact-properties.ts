import { defineOperation } from "@/lib/api/operation";
import { createContactProperty, deleteContactProperty, listContactProperties } from "@/lib/services/contact-properties";
import { createContactPropertyContract, deleteContactPropertyContract, listContactPropertiesContract } from "@/lib/contracts/contact-properties";

export const createContactPropertyOperation = defineOperation({
  ...createContactPropertyContract,
  handler: (ctx, { body }) => createContactProperty(ctx, body),
});

export const listContactPropertiesOperation = defineOperation({
  ...listContactPropertiesContract,
  handler: (ctx) => listContactProperties(ctx),
});

export const deleteContactPropertyOperation = defineOperation({
  ...deleteContactPropertyContract,
  handler: (ctx, { params }) => deleteContactProperty(ctx, params.id),
});

export const contactPropertiesOperations = [createContactPropertyOperation, listContactPropertiesOperation, deleteContactPropertyOperation];
