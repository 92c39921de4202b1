import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { listBroadcastRecipients, saveRecipientsAsSegment } from "@/lib/services/broadcast-recipients";
import { getBroadcastReport } from "@/lib/services/broadcast-report";
import { getBroadcastAverage, getOrganizationOverview } from "@/lib/services/organization-overview";
import {
  getBroadcastReportContract,
  listBroadcastRecipientsContract,
  saveBroadcastRecipientsContract,
  organizationOverviewContract,
  broadcastAverageContract,
} from "@/lib/contracts/reports";

export const getBroadcastReportOperation = defineOperation({
  ...getBroadcastReportContract,
  handler: (ctx, { params }) => getBroadcastReport(ctx, params.id),
});

export const listBroadcastRecipientsOperation = defineOperation({
  ...listBroadcastRecipientsContract,
  page: parseCursorParams,
  handler: (ctx, { params, query, page }) => listBroadcastRecipients(ctx, params.id, query, page),
});

export const saveBroadcastRecipientsOperation = defineOperation({
  ...saveBroadcastRecipientsContract,
  handler: (ctx, { params, body }) => saveRecipientsAsSegment(ctx, params.id, body),
});

export const organizationOverviewOperation = defineOperation({
  ...organizationOverviewContract,
  handler: (ctx) => getOrganizationOverview(ctx),
});

export const broadcastAverageOperation = defineOperation({
  ...broadcastAverageContract,
  handler: (ctx) => getBroadcastAverage(ctx),
});

export const reportsOperations = [
  getBroadcastReportOperation,
  listBroadcastRecipientsOperation,
  saveBroadcastRecipientsOperation,
  organizationOverviewOperation,
  broadcastAverageOperation,
];
