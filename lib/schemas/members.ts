import { z } from "zod";
import { Role } from "@/lib/generated/prisma/enums";
import { dateTime, id } from "./common";

export const memberRole = z.enum(Role);

export const memberParams = z.object({ userId: id });

export const updateMemberInput = z.object({
  role: memberRole.meta({ description: "Only an owner may grant or take away the owner role." }),
});
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;

export const member = z.object({
  user_id: id,
  email: z.string(),
  name: z.string(),
  role: memberRole,
  created_at: dateTime.meta({ description: "When the user joined the organization." }),
});
member.register(z.globalRegistry, { id: "Member" });

export const memberList = z.object({
  object: z.literal("list"),
  has_more: z.literal(false).meta({ description: "Always false: every member is in one answer." }),
  data: z.array(member),
});
