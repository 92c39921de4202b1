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
  description:
    "Answers the DNS records to publish: ownership TXT, DKIM TXT, the return path's MX and SPF TXT, and DMARC TXT, each " +
    "`pending` until checked, and the tracking CNAME with `tracking_subdomain`. The domain is `pending` until its ownership " +
    "record is verified. `return_path` picks the label of the return-path subdomain (default `bounces`).",
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
    "Looks up every record now and answers each one's `status` (`verified`, `pending`, or `mismatch` with what was " +
    "`found`) and `warnings` (an SPF record at the return path that would conflict with ours). The ownership record " +
    "decides the domain's status: found, it becomes `verified`; not found, the status is unchanged and " +
    "`verification.reason` says what the lookup saw. Mail is DKIM-signed only while the DKIM record is verified, and " +
    "relay mail uses the return path only while its MX and SPF records are, links the tracking host only while its CNAME is. A record whose status changes is sent as " +
    "a `domain.updated` webhook; verified domains are also checked again every day.",
  auth: "member",
  params: idParams,
  response: verifiedDomain,
  errors: ["NOT_FOUND", "CONFLICT"],
});
