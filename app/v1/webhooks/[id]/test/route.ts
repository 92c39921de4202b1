import { testWebhookOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const POST = route(testWebhookOperation);
