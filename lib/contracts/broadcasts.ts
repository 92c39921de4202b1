import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { broadcast, createBroadcastInput, resendBroadcastInput, updateBroadcastInput } from "@/lib/schemas/broadcasts";
import { idParams, successResponse } from "@/lib/schemas/common";
import { broadcastStepsParams, createStepInput, sequenceStep, stepParams, updateStepInput } from "@/lib/schemas/steps";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Broadcasts";

const stepsTag = "Sequence steps";

const senderRules =
  "With `inbox_id`, the inbox's from name, from address and reply-to fill each of those fields not given in the same request; " +
  "`inbox_id` and a non-empty `inbox_ids` cannot be combined. Ids in the body must name records of the caller's organization. " +
  "An inbox named in `inbox_id` or `inbox_ids` must be verified (400 INBOX_NOT_VERIFIED, `details` naming each). " +
  "Extension: `html_content` and `text_content` hold the broadcast's own content when it has no template (1 MB each).";

export const createBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts",
  tag,
  summary: "Create a broadcast",
  description: `The new broadcast is a draft. \`name\` and \`subject\` are required; \`from_email\` too unless \`inbox_id\` supplies it. ${senderRules}`,
  auth: "member",
  body: createBroadcastInput,
  status: 201,
  response: broadcast,
  errors: ["VALIDATION_ERROR", "INBOX_NOT_VERIFIED"],
});

export const listBroadcastsContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts",
  tag,
  summary: "List broadcasts",
  description: "Newest first. Paginated when `limit` is given; otherwise every broadcast.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(broadcast),
});

export const getBroadcastContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}",
  tag,
  summary: "Retrieve a broadcast",
  auth: "member",
  params: idParams,
  response: broadcast,
  errors: ["NOT_FOUND"],
});

export const updateBroadcastContract = defineContract({
  method: "PUT",
  path: "/v1/broadcasts/{id}",
  tag,
  summary: "Update a broadcast",
  description:
    `Only a draft or scheduled broadcast can be updated (otherwise 400 BROADCAST_NOT_EDITABLE). Every field is optional. ${senderRules} ` +
    "Setting `inbox_id` clears `inbox_ids` and setting a non-empty `inbox_ids` clears `inbox_id`. Setting `scheduled_at` does not change the status.",
  auth: "member",
  params: idParams,
  body: updateBroadcastInput,
  response: broadcast,
  errors: ["VALIDATION_ERROR", "INBOX_NOT_VERIFIED", "BROADCAST_NOT_EDITABLE", "NOT_FOUND"],
});

export const deleteBroadcastContract = defineContract({
  method: "DELETE",
  path: "/v1/broadcasts/{id}",
  tag,
  summary: "Delete a broadcast",
  description: "Deletes the broadcast and its sequence steps; sent emails are kept. Refused while it is sending (400 BROADCAST_NOT_EDITABLE).",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["BROADCAST_NOT_EDITABLE", "NOT_FOUND"],
});

export const resendBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/resend",
  tag,
  summary: "Resend to non-openers or non-clickers",
  description:
    "Creates a draft with the original's sender and content (an A/B test's winner's), the new `subject`, and a new static segment: " +
    "the first email's recipients whose server accepted it, who did not open (`non_openers`) or click (`non_clickers`) it and can still " +
    "be reached. Whoever opens (clicks) the original before the resend goes out is left out then too. Only a broadcast that has " +
    "started can be resent (400 BROADCAST_NOT_SENT).",
  auth: "member",
  params: idParams,
  body: resendBroadcastInput,
  status: 201,
  response: broadcast,
  errors: ["VALIDATION_ERROR", "BROADCAST_NOT_SENT", "NOT_FOUND"],
});

export const listStepsContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{broadcastId}/steps",
  tag: stepsTag,
  summary: "List the sequence steps of a broadcast",
  description: "In sequence order (`position` 1 first). Never paginated: a sequence is short.",
  auth: "member",
  params: broadcastStepsParams,
  response: listEnvelope(sequenceStep),
  errors: ["NOT_FOUND"],
});

export const createStepContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{broadcastId}/steps",
  tag: stepsTag,
  summary: "Add a sequence step",
  description:
    "A step needs its own HTML or text, or a template. Without `position` it goes last; with one it is inserted there and later steps move down. " +
    "Only while the broadcast is a draft or scheduled (otherwise 400 BROADCAST_NOT_EDITABLE).",
  auth: "member",
  params: broadcastStepsParams,
  body: createStepInput,
  status: 201,
  response: sequenceStep,
  errors: ["VALIDATION_ERROR", "BROADCAST_NOT_EDITABLE", "NOT_FOUND"],
});

export const updateStepContract = defineContract({
  method: "PUT",
  path: "/v1/broadcasts/{broadcastId}/steps/{stepId}",
  tag: stepsTag,
  summary: "Update a sequence step",
  description:
    "Every field is optional. A new `position` moves the step and the steps between shift to keep positions 1..n. " +
    "Only while the broadcast is a draft or scheduled (otherwise 400 BROADCAST_NOT_EDITABLE).",
  auth: "member",
  params: stepParams,
  body: updateStepInput,
  response: sequenceStep,
  errors: ["VALIDATION_ERROR", "BROADCAST_NOT_EDITABLE", "NOT_FOUND"],
});

export const deleteStepContract = defineContract({
  method: "DELETE",
  path: "/v1/broadcasts/{broadcastId}/steps/{stepId}",
  tag: stepsTag,
  summary: "Delete a sequence step",
  description: "Later steps move up. Only while the broadcast is a draft or scheduled (otherwise 400 BROADCAST_NOT_EDITABLE).",
  auth: "member",
  params: stepParams,
  response: successResponse,
  errors: ["BROADCAST_NOT_EDITABLE", "NOT_FOUND"],
});
