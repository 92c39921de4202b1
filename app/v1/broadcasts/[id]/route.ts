import { deleteBroadcastOperation, getBroadcastOperation, updateBroadcastOperation } from "@/lib/api/operations/broadcasts";
import { route } from "@/lib/api/route";

export const GET = route(getBroadcastOperation);
export const PUT = route(updateBroadcastOperation);
export const DELETE = route(deleteBroadcastOperation);
