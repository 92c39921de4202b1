import { removeMemberOperation, updateMemberOperation } from "@/lib/api/operations/members";
import { route } from "@/lib/api/route";

export const PUT = route(updateMemberOperation);
export const DELETE = route(removeMemberOperation);
