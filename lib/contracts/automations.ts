import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams } from "@/lib/schemas/common";
import { automation, automationRun, automationRunsQuery, createAutomationInput, updateAutomationInput } from "@/lib/schemas/automations";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Automations";

// A tree of 100 steps with their HTML is large; 2 MB keeps it from being a way to store files.
const MAX_BODY = 2 * 1024 * 1024;

export const createAutomationContract = defineContract({
  method: "POST",
  path: "/v1/automations",
  tag,
  summary: "Create an automation",
  description:
    "Answers a `draft`, each step with a server-given `id`. Every id in the body must name a record of the organization (400 naming the field); each send step needs a sender at a verified domain, or the automation's inboxes (sales mode needs one).",
  auth: "member",
  body: createAutomationInput,
  maxBodyBytes: MAX_BODY,
  status: 201,
  response: automation,
  errors: ["DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED"],
});

export const listAutomationsContract = defineContract({
  method: "GET",
  path: "/v1/automations",
  tag,
  summary: "List automations",
  description: "Newest first, archived ones included. Paginated when `limit` is given; otherwise every automation.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(automation),
});

export const getAutomationContract = defineContract({
  method: "GET",
  path: "/v1/automations/{id}",
  tag,
  summary: "Retrieve an automation",
  description:
    "With `stats` (runs entered, active, completed, exited) and each step's `stats` (entered, completed, current; send steps sent, opened, clicked).",
  auth: "member",
  params: idParams,
  response: automation,
  errors: ["NOT_FOUND"],
});

export const updateAutomationContract = defineContract({
  method: "PUT",
  path: "/v1/automations/{id}",
  tag,
  summary: "Update an automation",
  description:
    "Draft or paused automations only (else 400 AUTOMATION_NOT_EDITABLE); only the fields given change. A step sent with an existing step's `id` keeps it and its runs; runs in a removed step leave (`step_removed`) when they next move.",
  auth: "member",
  params: idParams,
  body: updateAutomationInput,
  maxBodyBytes: MAX_BODY,
  response: automation,
  errors: ["NOT_FOUND", "AUTOMATION_NOT_EDITABLE", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED"],
});

export const deleteAutomationContract = defineContract({
  method: "DELETE",
  path: "/v1/automations/{id}",
  tag,
  summary: "Archive an automation",
  description: "Archives it: runs in progress end (`exited`, `archived`) and their unsent emails are cancelled. Answers the archived automation.",
  auth: "member",
  params: idParams,
  response: automation,
  errors: ["NOT_FOUND"],
});

export const activateAutomationContract = defineContract({
  method: "POST",
  path: "/v1/automations/{id}/activate",
  tag,
  summary: "Activate an automation",
  description:
    "A draft or paused automation becomes `active`: its trigger starts runs and its runs move (those whose wait ended meanwhile at once). Everything it names is checked again.",
  auth: "member",
  params: idParams,
  response: automation,
  errors: ["NOT_FOUND", "AUTOMATION_ARCHIVED", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED"],
});

export const pauseAutomationContract = defineContract({
  method: "POST",
  path: "/v1/automations/{id}/pause",
  tag,
  summary: "Pause an automation",
  description: "No contact enters and runs stay where they are until it is activated again. A draft: 400 AUTOMATION_NOT_ACTIVE; archived: AUTOMATION_ARCHIVED.",
  auth: "member",
  params: idParams,
  response: automation,
  errors: ["NOT_FOUND", "AUTOMATION_NOT_ACTIVE", "AUTOMATION_ARCHIVED"],
});

export const listAutomationRunsContract = defineContract({
  method: "GET",
  path: "/v1/automations/{id}/runs",
  tag,
  summary: "List an automation's runs",
  description: "Newest first, cursor-paginated (default 20). Each run carries its `history`, one entry per step it reached.",
  auth: "member",
  params: idParams,
  query: automationRunsQuery,
  pageQuery: cursorQuery,
  response: listEnvelope(automationRun),
  errors: ["NOT_FOUND"],
});
