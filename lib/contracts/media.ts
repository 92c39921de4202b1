import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { MAX_MEDIA_BODY_BYTES, media, uploadMediaInput } from "@/lib/schemas/media";
import { MEDIA_TOO_LARGE } from "@/lib/schemas/media-limits";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Media";

export const uploadMediaContract = defineContract({
  method: "POST",
  path: "/v1/media",
  operationId: "uploadMedia",
  tag,
  summary: "Upload an image",
  description:
    "multipart/form-data with one `file`, or JSON (base64). PNG, JPEG, GIF or WebP, told by the bytes (else 400); at most 5 MB and within the organization's allowance (413). Use `url` in an image block.",
  auth: "member",
  multipart: true,
  body: uploadMediaInput,
  status: 201,
  response: media,
  maxBodyBytes: MAX_MEDIA_BODY_BYTES,
  // The body's limit is the image's in base64 plus room: the caller knows only the image's.
  tooLargeMessage: MEDIA_TOO_LARGE,
  errors: ["VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"],
});

export const listMediaContract = defineContract({
  method: "GET",
  path: "/v1/media",
  operationId: "listMedia",
  tag,
  summary: "List images",
  description: "The organization's media library, newest first (20 a page unless `limit` says otherwise).",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(media),
});

export const deleteMediaContract = defineContract({
  method: "DELETE",
  path: "/v1/media/{id}",
  tag,
  summary: "Delete an image",
  description: "Its URL answers 404 from then on, in emails already sent too.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});
