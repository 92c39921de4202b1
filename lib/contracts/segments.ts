import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import {
  addSegmentContactsInput,
  addSegmentContactsResult,
  createSegmentInput,
  previewSegmentInput,
  segment,
  segmentPreview,
  segmentContactParams,
  updateSegmentInput,
} from "@/lib/schemas/segments";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Segments";

export const createSegmentContract = defineContract({
  method: "POST",
  path: "/v1/segments",
  tag,
  summary: "Create a segment",
  description:
    "With `filter`, a dynamic segment whose members (and `contacts_count`) are resolved whenever it is used; without, a static one filled by hand. A bad filter is 400 naming its path.",
  auth: "member",
  body: createSegmentInput,
  status: 201,
  response: segment,
});

export const listSegmentsContract = defineContract({
  method: "GET",
  path: "/v1/segments",
  tag,
  summary: "List segments",
  description: "Newest first. Paginated when `limit` is given; otherwise every segment.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(segment),
});

export const getSegmentContract = defineContract({
  method: "GET",
  path: "/v1/segments/{id}",
  tag,
  summary: "Retrieve a segment",
  auth: "member",
  params: idParams,
  response: segment,
  errors: ["NOT_FOUND"],
});

export const updateSegmentContract = defineContract({
  method: "PUT",
  path: "/v1/segments/{id}",
  tag,
  summary: "Update a segment",
  description:
    "Only the fields given change. A dynamic segment takes a new `filter` (400 when it would include itself through `in_segment`); a static one takes none.",
  auth: "member",
  params: idParams,
  body: updateSegmentInput,
  response: segment,
  errors: ["NOT_FOUND"],
});

export const deleteSegmentContract = defineContract({
  method: "DELETE",
  path: "/v1/segments/{id}",
  tag,
  summary: "Delete a segment",
  description: "Its contacts stay; broadcasts and exit conditions lose it. One another dynamic segment's filter includes is 409 naming it.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND", "CONFLICT"],
});

export const addSegmentContactsContract = defineContract({
  method: "POST",
  path: "/v1/segments/{id}/contacts",
  operationId: "addSegmentContacts",
  tag,
  summary: "Add contacts to a segment",
  description:
    "By `contact_ids` and/or `emails` (up to 10 000 each), all contacts of the organization: else 400 naming the first that is not, and nothing is added. `added` counts those not in it yet.",
  auth: "member",
  params: idParams,
  body: addSegmentContactsInput,
  maxBodyBytes: 8 * 1024 * 1024,
  response: addSegmentContactsResult,
  errors: ["NOT_FOUND", "SEGMENT_IS_DYNAMIC"],
});

export const removeSegmentContactContract = defineContract({
  method: "DELETE",
  path: "/v1/segments/{id}/contacts/{contactId}",
  operationId: "removeSegmentContact",
  tag,
  summary: "Remove a contact from a segment",
  description:
    "404 when the segment or the contact does not exist; a contact that is not in the segment is already out. " +
    "A dynamic segment is 409 SEGMENT_IS_DYNAMIC.",
  auth: "member",
  params: segmentContactParams,
  response: successResponse,
  errors: ["NOT_FOUND", "SEGMENT_IS_DYNAMIC"],
});

export const previewSegmentContract = defineContract({
  method: "POST",
  path: "/v1/segments/preview",
  tag,
  summary: "Preview a dynamic segment",
  description: "How many contacts a filter matches now and up to 10 of them, saving nothing. A filter the language refuses is 400 naming the path.",
  auth: "member",
  body: previewSegmentInput,
  response: segmentPreview,
});
