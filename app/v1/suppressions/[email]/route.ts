import { removeSuppressionOperation } from "@/lib/api/operations/suppressions";
import { route } from "@/lib/api/route";

export const DELETE = route(removeSuppressionOperation);
