import { deleteTemplateOperation, getTemplateOperation, updateTemplateOperation } from "@/lib/api/operations/templates";
import { route } from "@/lib/api/route";

export const GET = route(getTemplateOperation);
export const PUT = route(updateTemplateOperation);
export const DELETE = route(deleteTemplateOperation);
