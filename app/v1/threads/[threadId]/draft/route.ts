import { deleteDraftOperation, saveDraftOperation } from "@/lib/api/operations/threads";
import { route } from "@/lib/api/route";

export const PUT = route(saveDraftOperation);
export const DELETE = route(deleteDraftOperation);
