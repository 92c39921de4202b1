import { cancelEmailOperation } from "@/lib/api/operations/emails";
import { route } from "@/lib/api/route";

export const POST = route(cancelEmailOperation);
