import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { listAuditLog } from "@/lib/services/audit-log";
import { listAuditLogContract } from "@/lib/contracts/audit-log";

export const listAuditLogOperation = defineOperation({
  ...listAuditLogContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { page, query }) => listAuditLog(ctx, page, query),
});

export const auditLogOperations = [listAuditLogOperation];
