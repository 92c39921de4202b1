import { defineOperation } from "@/lib/api/operation";
import { cursorQuery, listEnvelope, parseCursorParams } from "@/lib/api/pagination";
import { auditLogEntry, auditLogQuery } from "@/lib/schemas/audit-log";
import { listAuditLog } from "@/lib/services/audit-log";

export const listAuditLogOperation = defineOperation({
  method: "GET",
  path: "/v1/audit-log",
  tag: "Audit log",
  summary: "List the audit log",
  description:
    "Security-relevant actions in the organization, newest first: sign-ins and failures of its members, API keys, invitations, members, domains, inboxes, webhooks, suppressions and settings. Needs the admin or owner role. Always cursor-paginated (default 20 a page).",
  auth: "admin",
  query: auditLogQuery,
  page: (search) => parseCursorParams(search),
  pageQuery: cursorQuery,
  response: listEnvelope(auditLogEntry),
  handler: (ctx, { page, query }) => listAuditLog(ctx, page, query),
});

export const auditLogOperations = [listAuditLogOperation];
