import { createInvitationOperation, listInvitationsOperation } from "@/lib/api/operations/invitations";
import { route } from "@/lib/api/route";

export const POST = route(createInvitationOperation);
export const GET = route(listInvitationsOperation);
