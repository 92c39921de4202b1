import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { deleteMedia, listMedia, uploadMedia } from "@/lib/services/media";
import { deleteMediaContract, listMediaContract, uploadMediaContract } from "@/lib/contracts/media";

export const uploadMediaOperation = defineOperation({
  ...uploadMediaContract,
  handler: (ctx, { body }) => uploadMedia(ctx, body.filename, Buffer.from(body.content, "base64")),
});

export const listMediaOperation = defineOperation({
  ...listMediaContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { page }) => listMedia(ctx, page),
});

export const deleteMediaOperation = defineOperation({
  ...deleteMediaContract,
  handler: (ctx, { params }) => deleteMedia(ctx, params.id),
});

export const mediaOperations = [uploadMediaOperation, listMediaOperation, deleteMediaOperation];
