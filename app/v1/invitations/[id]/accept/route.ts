import { acceptInvitationOperation } from "@/lib/api/operations/invitations";
import { route } from "@/lib/api/route";

// The folder says [id] because Next allows one segment name per level; this segment is the token.
export const POST = route(acceptInvitationOperation);
