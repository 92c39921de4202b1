import { listAutomationRunsOperation } from "@/lib/api/operations/automations";
import { route } from "@/lib/api/route";

export const GET = route(listAutomationRunsOperation);
