import { resendBroadcastOperation } from "@/lib/api/operations/broadcasts";
import { route } from "@/lib/api/route";

export const POST = route(resendBroadcastOperation);
