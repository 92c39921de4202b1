import { deleteMediaOperation } from "@/lib/api/operations/media";
import { route } from "@/lib/api/route";

export const DELETE = route(deleteMediaOperation);
