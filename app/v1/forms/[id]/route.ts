import { deleteFormOperation, getFormOperation, updateFormOperation } from "@/lib/api/operations/forms";
import { route } from "@/lib/api/route";

export const GET = route(getFormOperation);
export const PUT = route(updateFormOperation);
export const DELETE = route(deleteFormOperation);
