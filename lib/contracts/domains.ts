import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createDomainInput, domain, updateDomainInput, verifiedDomain } from "@/lib/schemas/domains";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Domains";

export const createDomainContract = defineContract({
  method: "POST",
  path: "/v1/domains",
  tag,
  summary: "Add a domain",
  description: "Answers the DNS records to publish, each `pending` until checked. The domain is `pending` until its ownership record is verified.",
  auth: "member",
  body: createDomainInput,
  status: 201,
  response: domain,
  errors: ["CONFLICT"],
});

export const listDomainsContract = defineContract({
  method: "GET",
  path: "/v1/domains",
  tag,
  summary: "List domains",
  description: "Newest first. Paginated when `limit` is given; otherwise every domain.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(domain),
});

export const getDomainContract = defineContract({
  method: "GET",
  path: "/v1/domains/{id}",
  tag,
  summary: "Retrieve a domain",
  auth: "member",
  params: idParams,
  response: domain,
  errors: ["NOT_FOUND"],
});

export const updateDomainContract = defineContract({
  method: "PUT",
  path: "/v1/domains/{id}",
  tag,
  summary: "Update a domain",
  description: "Sets or removes `tracking_subdomain`; its CNAME is `pending` until `POST /v1/domains/{id}/verify` sees it.",
  auth: "member",
  params: idParams,
  body: updateDomainInput,
  response: domain,
  errors: ["NOT_FOUND"],
});

export const deleteDomainContract = defineContract({
  method: "DELETE",
  path: "/v1/domains/{id}",
  tag,
  summary: "Delete a domain",
  description: "Sending from its addresses needs the domain added and verified again.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});

export const verifyDomainContract = defineContract({
  method: "POST",
  path: "/v1/domains/{id}/verify",
  tag,
  summary: "Verify a domain",
  description:
    "Looks up every record now. Found, the ownership record makes the domain `verified`; not found, its status stays and `verification.reason` says what the lookup saw. DKIM signing, the return path and the tracking host each work only while their records are verified. Status changes are sent as `domain.updated`; verified domains are checked daily.",
  auth: "member",
  params: idParams,
  response: verifiedDomain,
  errors: ["NOT_FOUND", "CONFLICT"],
});
