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
    "Security-relevant actions, newest first: members' sign-ins and failures, and changes to API keys, invitations, members, domains, inboxes, webhooks, suppressions and settings. Always cursor-paginated.",
  auth: "admin",
  query: auditLogQuery,
  pageQuery: cursorQuery,
  response: listEnvelope(auditLogEntry),
});
