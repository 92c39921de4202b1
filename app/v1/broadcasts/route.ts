import { createBroadcastOperation, listBroadcastsOperation } from "@/lib/api/operations/broadcasts";
import { route } from "@/lib/api/route";

export const POST = route(createBroadcastOperation);
export const GET = route(listBroadcastsOperation);
