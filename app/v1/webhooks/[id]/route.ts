import { deleteWebhookOperation, getWebhookOperation, updateWebhookOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";

export const GET = route(getWebhookOperation);
export const PUT = route(updateWebhookOperation);
export const DELETE = route(deleteWebhookOperation);
