import { deleteSectionOperation, updateSectionOperation } from "@/lib/api/operations/sections";
import { route } from "@/lib/api/route";

export const PUT = route(updateSectionOperation);
export const DELETE = route(deleteSectionOperation);
