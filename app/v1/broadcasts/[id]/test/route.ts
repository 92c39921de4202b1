import { sendBroadcastTestOperation } from "@/lib/api/operations/test-sends";
import { route } from "@/lib/api/route";

export const POST = route(sendBroadcastTestOperation);
