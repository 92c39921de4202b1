import { pauseAutomationOperation } from "@/lib/api/operations/automations";
import { route } from "@/lib/api/route";

export const POST = route(pauseAutomationOperation);
