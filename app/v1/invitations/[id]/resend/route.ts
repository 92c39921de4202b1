import { resendInvitationOperation } from "@/lib/api/operations/invitations";
import { route } from "@/lib/api/route";

export const POST = route(resendInvitationOperation);
