import { idParams, successResponse } from "@/lib/schemas/common";
import { acceptedInvitation, createInvitationInput, invitation, invitationList, invitationTokenParams } from "@/lib/schemas/invitations";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Invitations";

export const createInvitationContract = defineContract({
  method: "POST",
  path: "/v1/invitations",
  tag,
  summary: "Invite a team member",
  description: "Mails the invitee a link valid for 7 days. An address with a pending invitation or already a member is 409.",
  auth: "admin",
  body: createInvitationInput,
  status: 201,
  response: invitation,
  errors: ["FORBIDDEN", "CONFLICT", "ALREADY_MEMBER", "MAIL_DELIVERY_FAILED"],
});

export const listInvitationsContract = defineContract({
  method: "GET",
  path: "/v1/invitations",
  tag,
  summary: "List pending invitations",
  description: "Pending, unexpired invitations of the organization, newest first.",
  auth: "admin",
  response: invitationList,
  errors: ["FORBIDDEN"],
});

export const acceptInvitationContract = defineContract({
  method: "POST",
  path: "/v1/invitations/{token}/accept",
  tag,
  summary: "Accept an invitation",
  description: "Joins the authenticated user to the invitation's organization with the invitation's role. The caller's email must be the invited address.",
  auth: "user",
  params: invitationTokenParams,
  response: acceptedInvitation,
  errors: ["NOT_FOUND", "INVITATION_EMAIL_MISMATCH", "INVITATION_NOT_PENDING", "INVITATION_ALREADY_ACCEPTED", "ALREADY_MEMBER", "INVITATION_EXPIRED"],
});

export const resendInvitationContract = defineContract({
  method: "POST",
  path: "/v1/invitations/{id}/resend",
  tag,
  summary: "Resend an invitation",
  description: "Mails a new link (the previous one stops working) valid for another 7 days. Only pending invitations.",
  auth: "admin",
  params: idParams,
  response: invitation,
  errors: ["FORBIDDEN", "NOT_FOUND", "INVITATION_NOT_PENDING", "MAIL_DELIVERY_FAILED"],
});

export const cancelInvitationContract = defineContract({
  method: "DELETE",
  path: "/v1/invitations/{id}",
  operationId: "cancelInvitation",
  tag,
  summary: "Cancel an invitation",
  description: "Its link stops working. Only pending invitations.",
  auth: "admin",
  params: idParams,
  response: successResponse,
  errors: ["FORBIDDEN", "NOT_FOUND", "INVITATION_NOT_PENDING"],
});
