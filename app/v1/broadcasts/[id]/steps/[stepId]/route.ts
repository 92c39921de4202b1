import { deleteStepOperation, updateStepOperation } from "@/lib/api/operations/broadcasts";
import { route } from "@/lib/api/route";

export const PUT = route(updateStepOperation);
export const DELETE = route(deleteStepOperation);
