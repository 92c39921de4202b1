import { deleteTopicOperation, getTopicOperation, updateTopicOperation } from "@/lib/api/operations/topics";
import { route } from "@/lib/api/route";

export const GET = route(getTopicOperation);
export const PUT = route(updateTopicOperation);
export const DELETE = route(deleteTopicOperation);
