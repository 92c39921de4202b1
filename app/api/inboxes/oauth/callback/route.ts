import { callbackRoute } from "@/lib/oauth/consent-routes";

export const GET = callbackRoute;
