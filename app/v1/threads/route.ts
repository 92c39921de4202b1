import { listThreadsOperation } from "@/lib/api/operations/threads";
import { route } from "@/lib/api/route";

export const GET = route(listThreadsOperation);
