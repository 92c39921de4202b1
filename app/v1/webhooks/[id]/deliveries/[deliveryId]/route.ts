import { getWebhookDeliveryOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const GET = route(getWebhookDeliveryOperation);
