import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams } from "@/lib/schemas/common";
import { broadcastAverage, broadcastRecipient, broadcastReport, organizationOverview, recipientsQuery, saveRecipientsInput } from "@/lib/schemas/reports";
import { segment } from "@/lib/schemas/segments";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Reports";

export const getBroadcastReportContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}/report",
  tag,
  summary: "Report of a broadcast",
  description:
    "What became of its emails, every step included: totals, rates, clicked links, a timeline and the steps' funnel. Opens and clicks by programs (privacy proxies, link scanners, bots) are counted in `machine_opens` and `machine_clicks` only.",
  auth: "member",
  params: idParams,
  response: broadcastReport,
  errors: ["NOT_FOUND"],
});

export const listBroadcastRecipientsContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}/recipients",
  tag,
  summary: "Recipients of a broadcast by event",
  description: "Its emails with the given event (`opened`, `clicked`: by a person), latest first, with their contacts; `position` narrows to one step.",
  auth: "member",
  params: idParams,
  query: recipientsQuery,
  pageQuery: cursorQuery,
  response: listEnvelope(broadcastRecipient),
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const saveBroadcastRecipientsContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/recipients/segment",
  operationId: "saveBroadcastRecipientsAsSegment",
  tag,
  summary: "Save recipients as a segment",
  description: "A new segment of the contacts of one recipient list (`event`, `position`), each once; deleted contacts are left out.",
  auth: "member",
  params: idParams,
  body: saveRecipientsInput,
  status: 201,
  response: segment,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const organizationOverviewContract = defineContract({
  method: "GET",
  path: "/v1/reports/overview",
  operationId: "getOrganizationOverview",
  tag,
  summary: "Overview of the organization's sending",
  description:
    "The last 30 UTC days: emails sent per day and what became of them, the period's rates, broadcasts sending now, and warnings (unverified domains; paused, failing or unproven inboxes; complaint or bounce rates near their limits).",
  auth: "member",
  response: organizationOverview,
});

export const broadcastAverageContract = defineContract({
  method: "GET",
  path: "/v1/reports/broadcast-average",
  operationId: "getBroadcastAverage",
  tag,
  summary: "Average rates of the organization's broadcasts",
  description: "The rates of all the emails of the broadcasts started in the last 90 days, pooled: what one broadcast's report is compared with.",
  auth: "member",
  response: broadcastAverage,
});
