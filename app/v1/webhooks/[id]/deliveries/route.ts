import { listWebhookDeliveriesOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const GET = route(listWebhookDeliveriesOperation);
