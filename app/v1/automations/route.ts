import { createAutomationOperation, listAutomationsOperation } from "@/lib/api/operations/automations";
import { route } from "@/lib/api/route";

export const POST = route(createAutomationOperation);
export const GET = route(listAutomationsOperation);
