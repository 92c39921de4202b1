import type { z } from "zod";
import { queryKeys } from "@/lib/client/query-keys";
import type { invitation } from "@/lib/schemas/invitations";
import type { member } from "@/lib/schemas/members";

export type Member = z.infer<typeof member>;
export type Invitation = z.infer<typeof invitation>;

export const membersKey = queryKeys.members.all();
export const invitationsKey = queryKeys.invitations.all();

export const roleOptions = [
  { value: "member", label: "Member", description: "Sends broadcasts, manages contacts and templates." },
  { value: "admin", label: "Admin", description: "Everything a member does, plus invites and manages the team." },
  { value: "owner", label: "Owner", description: "Full control, including other owners." },
];
