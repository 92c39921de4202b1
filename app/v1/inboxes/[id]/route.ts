import { deleteInboxOperation, getInboxOperation, updateInboxOperation } from "@/lib/api/operations/inboxes";
import { route } from "@/lib/api/route";

export const GET = route(getInboxOperation);
export const PUT = route(updateInboxOperation);
export const DELETE = route(deleteInboxOperation);
