import { listAuditLogOperation } from "@/lib/api/operations/audit-log";
import { route } from "@/lib/api/route";

export const GET = route(listAuditLogOperation);
