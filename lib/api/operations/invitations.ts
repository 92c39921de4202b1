import { defineOperation } from "@/lib/api/operation";
import { acceptInvitation, cancelInvitation, createInvitation, listInvitations, resendInvitation } from "@/lib/services/invitations";
import {
  createInvitationContract,
  listInvitationsContract,
  acceptInvitationContract,
  resendInvitationContract,
  cancelInvitationContract,
} from "@/lib/contracts/invitations";

export const createInvitationOperation = defineOperation({
  ...createInvitationContract,
  handler: (ctx, { body }) => createInvitation(ctx, body),
});

export const listInvitationsOperation = defineOperation({
  ...listInvitationsContract,
  handler: (ctx) => listInvitations(ctx),
});

export const acceptInvitationOperation = defineOperation({
  ...acceptInvitationContract,
  handler: (ctx, { params }) => acceptInvitation(ctx, params.token),
});

export const resendInvitationOperation = defineOperation({
  ...resendInvitationContract,
  handler: (ctx, { params }) => resendInvitation(ctx, params.id),
});

export const cancelInvitationOperation = defineOperation({
  ...cancelInvitationContract,
  handler: (ctx, { params }) => cancelInvitation(ctx, params.id),
});

export const invitationsOperations = [
  createInvitationOperation,
  listInvitationsOperation,
  acceptInvitationOperation,
  resendInvitationOperation,
  cancelInvitationOperation,
];
