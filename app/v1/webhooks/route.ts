import { createWebhookOperation, listWebhooksOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const POST = route(createWebhookOperation);
export const GET = route(listWebhooksOperation);
