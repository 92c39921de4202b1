import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { broadcast, createBroadcastInput, resendBroadcastInput, updateBroadcastInput } from "@/lib/schemas/broadcasts";
import { idParams, successResponse } from "@/lib/schemas/common";
import { broadcastStepsParams, createStepInput, sequenceStep, stepParams, updateStepInput } from "@/lib/schemas/steps";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Broadcasts";

const stepsTag = "Sequence steps";

export const createBroadcastContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts",
  tag,
  summary: "Create a broadcast",
  description: "The new broadcast is a draft; `from_email` is required unless `inbox_id` supplies it.",
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
  description: "Draft or scheduled broadcasts only (else 400 BROADCAST_NOT_EDITABLE). Setting `scheduled_at` does not change the status.",
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
    "A draft with the original's sender and content (an A/B test's winner's), the new `subject`, and a new static segment: the first email's recipients whose server accepted it, who did not open (`non_openers`) or click (`non_clickers`) it and can still be reached; whoever does before it goes out is left out then too. Only for a broadcast that has started.",
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
    "A step needs its own HTML or text, or a template; it goes at `position` (later steps move down) or last. Only while the broadcast is a draft or scheduled.",
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
  description: "A new `position` moves the step, the others shifting to keep positions 1..n. Only while the broadcast is a draft or scheduled.",
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
