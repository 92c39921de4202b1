import { defineOperation } from "@/lib/api/operation";
import { parseOptionalCursorParams } from "@/lib/api/pagination";
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain, verifyDomain } from "@/lib/services/domains";
import {
  createDomainContract,
  listDomainsContract,
  getDomainContract,
  deleteDomainContract,
  updateDomainContract,
  verifyDomainContract,
} from "@/lib/contracts/domains";

export const createDomainOperation = defineOperation({
  ...createDomainContract,
  handler: (ctx, { body }) => createDomain(ctx, body),
});

export const listDomainsOperation = defineOperation({
  ...listDomainsContract,
  page: (search) => parseOptionalCursorParams(search),
  handler: (ctx, { page }) => listDomains(ctx, page),
});

export const getDomainOperation = defineOperation({
  ...getDomainContract,
  handler: (ctx, { params }) => getDomain(ctx, params.id),
});

export const updateDomainOperation = defineOperation({
  ...updateDomainContract,
  handler: (ctx, { params, body }) => updateDomain(ctx, params.id, body),
});

export const deleteDomainOperation = defineOperation({
  ...deleteDomainContract,
  handler: (ctx, { params }) => deleteDomain(ctx, params.id),
});

export const verifyDomainOperation = defineOperation({
  ...verifyDomainContract,
  handler: (ctx, { params }) => verifyDomain(ctx, params.id),
});

export const domainsOperations = [
  createDomainOperation,
  listDomainsOperation,
  getDomainOperation,
  updateDomainOperation,
  deleteDomainOperation,
  verifyDomainOperation,
];
