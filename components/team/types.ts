import { queryKeys } from "@/lib/client/query-keys";
import type { Role } from "@/lib/client/session";

export type Member = { user_id: string; email: string; name: string; role: Role; created_at: string };

export type Invitation = {
  id: string;
  email: string;
  role: "member" | "admin";
  status: "pending" | "accepted" | "expired" | "cancelled";
  inviter_name: string;
  inviter_email: string;
  expires_at: string;
  created_at: string;
};

export const membersKey = queryKeys.members.all();
export const invitationsKey = queryKeys.invitations.all();

export const roleOptions = [
  { value: "member", label: "Member", description: "Sends broadcasts, manages contacts and templates." },
  { value: "admin", label: "Admin", description: "Everything a member does, plus invites and manages the team." },
  { value: "owner", label: "Owner", description: "Full control, including other owners." },
];
