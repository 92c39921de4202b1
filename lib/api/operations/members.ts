import { defineOperation } from "@/lib/api/operation";
import { listMembers, removeMember, updateMemberRole } from "@/lib/services/members";
import { listMembersContract, updateMemberContract, removeMemberContract } from "@/lib/contracts/members";

export const listMembersOperation = defineOperation({
  ...listMembersContract,
  handler: (ctx) => listMembers(ctx),
});

export const updateMemberOperation = defineOperation({
  ...updateMemberContract,
  handler: (ctx, { params, body }) => updateMemberRole(ctx, params.userId, body),
});

export const removeMemberOperation = defineOperation({
  ...removeMemberContract,
  handler: (ctx, { params }) => removeMember(ctx, params.userId),
});

export const membersOperations = [listMembersOperation, updateMemberOperation, removeMemberOperation];
