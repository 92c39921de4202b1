import { defineOperation } from "@/lib/api/operation";
import { parseOptionalCursorParams } from "@/lib/api/pagination";
import { addSegmentContacts, createSegment, deleteSegment, getSegment, listSegments, removeSegmentContact, updateSegment } from "@/lib/services/segments";
import { previewSegment } from "@/lib/services/segment-counts";
import {
  createSegmentContract,
  listSegmentsContract,
  getSegmentContract,
  updateSegmentContract,
  deleteSegmentContract,
  addSegmentContactsContract,
  removeSegmentContactContract,
  previewSegmentContract,
} from "@/lib/contracts/segments";

export const createSegmentOperation = defineOperation({
  ...createSegmentContract,
  handler: (ctx, { body }) => createSegment(ctx, body),
});

export const listSegmentsOperation = defineOperation({
  ...listSegmentsContract,
  page: (search) => parseOptionalCursorParams(search),
  handler: (ctx, { page }) => listSegments(ctx, page),
});

export const getSegmentOperation = defineOperation({
  ...getSegmentContract,
  handler: (ctx, { params }) => getSegment(ctx, params.id),
});

export const updateSegmentOperation = defineOperation({
  ...updateSegmentContract,
  handler: (ctx, { params, body }) => updateSegment(ctx, params.id, body),
});

export const deleteSegmentOperation = defineOperation({
  ...deleteSegmentContract,
  handler: (ctx, { params }) => deleteSegment(ctx, params.id),
});

export const addSegmentContactsOperation = defineOperation({
  ...addSegmentContactsContract,
  handler: (ctx, { params, body }) => addSegmentContacts(ctx, params.id, body),
});

export const removeSegmentContactOperation = defineOperation({
  ...removeSegmentContactContract,
  handler: (ctx, { params }) => removeSegmentContact(ctx, params.id, params.contactId),
});

export const previewSegmentOperation = defineOperation({
  ...previewSegmentContract,
  handler: (ctx, { body }) => previewSegment(ctx, body),
});

export const segmentsOperations = [
  previewSegmentOperation,
  createSegmentOperation,
  listSegmentsOperation,
  getSegmentOperation,
  updateSegmentOperation,
  deleteSegmentOperation,
  addSegmentContactsOperation,
  removeSegmentContactOperation,
];
