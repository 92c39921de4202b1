import { createTopicOperation, listTopicsOperation } from "@/lib/api/operations/topics";
import { route } from "@/lib/api/route";

export const POST = route(createTopicOperation);
export const GET = route(listTopicsOperation);
