import { listContactEventsOperation } from "@/lib/api/operations/events";
import { route } from "@/lib/api/route";

export const GET = route(listContactEventsOperation);
