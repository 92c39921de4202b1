import { cancelInvitationOperation } from "@/lib/api/operations/invitations";
import { route } from "@/lib/api/route";

export const DELETE = route(cancelInvitationOperation);
