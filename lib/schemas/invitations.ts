import { z } from "zod";
import { InvitationStatus, Role } from "@/lib/generated/prisma/enums";
import { dateTime, emailAddress, id, text } from "./common";

// Ownership is never given by invitation.
const invitationRole = z.enum(Role).exclude(["owner"]);

export const createInvitationInput = z.object({
  email: emailAddress.meta({ description: "The invitee's address; compared case-insensitively." }),
  role: invitationRole.meta({ description: "The role the invitee gets on accepting." }),
});
export type CreateInvitationInput = z.infer<typeof createInvitationInput>;

// The token is 32 random bytes in base64url (43 characters); the upper bound only keeps junk out.
const invitationToken = text(200).min(32);

export const invitationTokenParams = z.object({
  token: invitationToken.meta({ description: "The token from the invitation link." }),
});

const invitationStatus = z.enum(InvitationStatus);

export const invitation = z.object({
  id,
  organization_id: id,
  email: z.string(),
  role: invitationRole,
  status: invitationStatus,
  invited_by: id,
  inviter_name: z.string().meta({ description: "Full name of the member who sent the invitation." }),
  inviter_email: z.string(),
  expires_at: dateTime,
  created_at: dateTime,
  updated_at: dateTime,
});
invitation.register(z.globalRegistry, { id: "Invitation" });

export const invitationList = z.object({
  invitations: z.array(invitation).meta({ description: "Pending, unexpired invitations, newest first." }),
});

export const acceptedInvitation = z.object({
  success: z.boolean(),
  organization_id: id,
  role: invitationRole,
});
