import { pauseBroadcastOperation } from "@/lib/api/operations/broadcast-sending";
import { route } from "@/lib/api/route";

export const POST = route(pauseBroadcastOperation);
