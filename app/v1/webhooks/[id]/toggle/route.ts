import { toggleWebhookOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const PUT = route(toggleWebhookOperation);
