import { defineOperation } from "@/lib/api/operation";
import { getOrganization, updateOrganization } from "@/lib/services/organizations";
import { getOrganizationContract, updateOrganizationContract } from "@/lib/contracts/organization";

export const getOrganizationOperation = defineOperation({
  ...getOrganizationContract,
  handler: (ctx) => getOrganization(ctx),
});

export const updateOrganizationOperation = defineOperation({
  ...updateOrganizationContract,
  handler: (ctx, { body }) => updateOrganization(ctx, body),
});

export const organizationOperations = [getOrganizationOperation, updateOrganizationOperation];
