import { createInboxOperation, listInboxesOperation } from "@/lib/api/operations/inboxes";
import { route } from "@/lib/api/route";

export const POST = route(createInboxOperation);
export const GET = route(listInboxesOperation);
