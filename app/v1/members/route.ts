import { listMembersOperation } from "@/lib/api/operations/members";
import { route } from "@/lib/api/route";

export const GET = route(listMembersOperation);
