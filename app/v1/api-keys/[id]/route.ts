import { revokeApiKeyOperation } from "@/lib/api/operations/api-keys";
import { route } from "@/lib/api/route";

export const DELETE = route(revokeApiKeyOperation);
