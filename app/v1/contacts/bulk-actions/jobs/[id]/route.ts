import { getContactBulkJobOperation } from "@/lib/api/operations/contact-bulk-actions";
import { route } from "@/lib/api/route";

export const GET = route(getContactBulkJobOperation);
