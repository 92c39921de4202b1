import { recordEventBatchOperation } from "@/lib/api/operations/events";
import { route } from "@/lib/api/route";

export const POST = route(recordEventBatchOperation);
