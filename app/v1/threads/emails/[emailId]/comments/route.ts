import { createCommentOperation, listCommentsOperation } from "@/lib/api/operations/threads";
import { route } from "@/lib/api/route";

export const POST = route(createCommentOperation);
export const GET = route(listCommentsOperation);
