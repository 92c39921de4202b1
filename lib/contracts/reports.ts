import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams } from "@/lib/schemas/common";
import { broadcastAverage, broadcastRecipient, broadcastReport, organizationOverview, recipientsQuery, saveRecipientsInput } from "@/lib/schemas/reports";
import { segment } from "@/lib/schemas/segments";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Reports";

const machines =
  "Opens and clicks made by programs — Apple Mail Privacy Protection, Google's and Yahoo's image proxies, link scanners that follow " +
  "every link of a message within seconds of its delivery, and other bots — are told apart when they are recorded: they are counted in " +
  "`machine_opens` and `machine_clicks` and left out of every other figure and rate.";

export const getBroadcastReportContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}/report",
  tag,
  summary: "Report of a broadcast",
  description:
    "What became of the broadcast's emails, every sequence step included: totals, rates (fractions of `sent`, from unique opens and " +
    `clicks), the clicked links, a timeline (hourly for 72 hours, then daily) and the funnel of the sequence's steps. ${machines}`,
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
  description:
    "The broadcast's emails with the given event (`opened` and `clicked`: by a person), latest first, with their contacts; " +
    "`position` narrows it to one step. Always paginated (default 20); `after` and `before` take an item's `id`.",
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
  description:
    "Creates a segment holding the contacts of one recipient list (`event`, optional `position`), each once. " +
    "Recipients whose contact was deleted are left out. Without `name` the segment is named after the broadcast and the event.",
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
    "The last 30 days (UTC days, today included): emails sent per day with how many were delivered, opened and clicked by people, " +
    "bounced and complained about, the rates over the period, the broadcasts sending now, and warnings: domains not verified, " +
    "inboxes paused, failing or not yet proven, a complaint rate near or over 0.3 % or a bounce rate near or over 5 %.",
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
