import { broadcastSendingStatusOperation } from "@/lib/api/operations/broadcast-sending";
import { route } from "@/lib/api/route";

export const GET = route(broadcastSendingStatusOperation);
