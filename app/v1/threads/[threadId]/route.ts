import { getThreadOperation, updateThreadOperation } from "@/lib/api/operations/threads";
import { route } from "@/lib/api/route";

export const GET = route(getThreadOperation);
export const PATCH = route(updateThreadOperation);
