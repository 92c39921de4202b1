import { replyToThreadOperation } from "@/lib/api/operations/threads";
import { route } from "@/lib/api/route";

export const POST = route(replyToThreadOperation);
