import { createApiKeyOperation, listApiKeysOperation } from "@/lib/api/operations/api-keys";
import { route } from "@/lib/api/route";

export const POST = route(createApiKeyOperation);
export const GET = route(listApiKeysOperation);
