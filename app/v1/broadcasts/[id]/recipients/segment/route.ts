import { saveBroadcastRecipientsOperation } from "@/lib/api/operations/reports";
import { route } from "@/lib/api/route";

export const POST = route(saveBroadcastRecipientsOperation);
