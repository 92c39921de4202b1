import { defineOperation } from "@/lib/api/operation";
import { cursorQuery, listEnvelope, parseOptionalCursorParams } from "@/lib/api/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createDomainInput, domain, verifiedDomain } from "@/lib/schemas/domains";
import { createDomain, deleteDomain, getDomain, listDomains, verifyDomain } from "@/lib/services/domains";

const tag = "Domains";

export const createDomainOperation = defineOperation({
  method: "POST",
  path: "/v1/domains",
  tag,
  summary: "Add a domain",
  description:
    "Answers the DNS records to publish: ownership TXT, DKIM TXT, the return path's MX and SPF TXT, and DMARC TXT, each " +
    "`pending` until checked. The domain is `pending` until its ownership record is verified. `return_path` picks the " +
    "label of the return-path subdomain (default `bounces`).",
  auth: "member",
  body: createDomainInput,
  status: 201,
  response: domain,
  errors: ["CONFLICT"],
  handler: (ctx, { body }) => createDomain(ctx, body),
});

export const listDomainsOperation = defineOperation({
  method: "GET",
  path: "/v1/domains",
  tag,
  summary: "List domains",
  description: "Newest first. Paginated when `limit` is given; otherwise every domain.",
  auth: "member",
  page: (search) => parseOptionalCursorParams(search),
  pageQuery: cursorQuery,
  response: listEnvelope(domain),
  handler: (ctx, { page }) => listDomains(ctx, page),
});

export const getDomainOperation = defineOperation({
  method: "GET",
  path: "/v1/domains/{id}",
  tag,
  summary: "Retrieve a domain",
  auth: "member",
  params: idParams,
  response: domain,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => getDomain(ctx, params.id),
});

export const deleteDomainOperation = defineOperation({
  method: "DELETE",
  path: "/v1/domains/{id}",
  tag,
  summary: "Delete a domain",
  description: "Sending from its addresses needs the domain added and verified again.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => deleteDomain(ctx, params.id),
});

export const verifyDomainOperation = defineOperation({
  method: "POST",
  path: "/v1/domains/{id}/verify",
  tag,
  summary: "Verify a domain",
  description:
    "Looks up every record now and answers each one's `status` (`verified`, `pending`, or `mismatch` with what was " +
    "`found`) and `warnings` (an SPF record at the return path that would conflict with ours). The ownership record " +
    "decides the domain's status: found, it becomes `verified`; not found, the status is unchanged and " +
    "`verification.reason` says what the lookup saw. Mail is DKIM-signed only while the DKIM record is verified, and " +
    "relay mail uses the return path only while its MX and SPF records are. A record whose status changes is sent as " +
    "a `domain.updated` webhook; verified domains are also checked again every day.",
  auth: "member",
  params: idParams,
  response: verifiedDomain,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => verifyDomain(ctx, params.id),
});

export const domainsOperations = [createDomainOperation, listDomainsOperation, getDomainOperation, deleteDomainOperation, verifyDomainOperation];
