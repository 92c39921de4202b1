import { replayWebhookDeliveryOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const POST = route(replayWebhookDeliveryOperation);
