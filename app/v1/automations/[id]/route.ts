import { deleteAutomationOperation, getAutomationOperation, updateAutomationOperation } from "@/lib/api/operations/automations";
import { route } from "@/lib/api/route";

export const GET = route(getAutomationOperation);
export const PUT = route(updateAutomationOperation);
export const DELETE = route(deleteAutomationOperation);
