import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { auditLogEntry, auditLogQuery } from "@/lib/schemas/audit-log";
import { defineContract } from "@/lib/contracts/contract";

export const listAuditLogContract = defineContract({
  method: "GET",
  path: "/v1/audit-log",
  operationId: "listAuditLog",
  tag: "Audit log",
  summary: "List the audit log",
  description:
    "Security-relevant actions in the organization, newest first: sign-ins and failures of its members, API keys, invitations, members, domains, inboxes, webhooks, suppressions and settings. Needs the admin or owner role. Always cursor-paginated (default 20 a page).",
  auth: "admin",
  query: auditLogQuery,
  pageQuery: cursorQuery,
  response: listEnvelope(auditLogEntry),
});
