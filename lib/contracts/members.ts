import { successResponse } from "@/lib/schemas/common";
import { member, memberList, memberParams, updateMemberInput } from "@/lib/schemas/members";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Members";

export const listMembersContract = defineContract({
  method: "GET",
  path: "/v1/members",
  tag,
  summary: "List members",
  description: "Every member of the organization in one list envelope (never paginated), in the order they joined.",
  auth: "member",
  response: memberList,
});

export const updateMemberContract = defineContract({
  method: "PUT",
  path: "/v1/members/{userId}",
  tag,
  summary: "Change a member's role",
  description: "Only an owner may grant or take away the owner role, and the last owner cannot be demoted (400 LAST_OWNER).",
  auth: "admin",
  params: memberParams,
  body: updateMemberInput,
  response: member,
  errors: ["FORBIDDEN", "NOT_FOUND", "LAST_OWNER"],
});

export const removeMemberContract = defineContract({
  method: "DELETE",
  path: "/v1/members/{userId}",
  operationId: "removeMember",
  tag,
  summary: "Remove a member",
  description:
    "Admins and owners remove others (only an owner removes an owner); anyone may leave. The last owner stays (400 LAST_OWNER). Their API keys here are revoked.",
  auth: "member",
  params: memberParams,
  response: successResponse,
  errors: ["FORBIDDEN", "NOT_FOUND", "LAST_OWNER"],
});
