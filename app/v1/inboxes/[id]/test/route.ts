import { testInboxOperation } from "@/lib/api/operations/inboxes";
import { route } from "@/lib/api/route";

export const POST = route(testInboxOperation);
