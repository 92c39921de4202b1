import { createTemplateOperation, listTemplatesOperation } from "@/lib/api/operations/templates";
import { route } from "@/lib/api/route";

export const POST = route(createTemplateOperation);
export const GET = route(listTemplatesOperation);
