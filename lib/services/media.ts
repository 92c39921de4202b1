import { randomBytes } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Media } from "@/lib/generated/prisma/client";
import { IMAGE_TYPES, imageTypeOf } from "@/lib/media/image-type";
import { mediaStore } from "@/lib/media/store";
import { mediaUrl } from "@/lib/media/url";
import type { MediaRecord } from "@/lib/schemas/media";
import { MAX_MEDIA_BYTES, MEDIA_TOO_LARGE } from "@/lib/schemas/media-limits";
import type { CursorParams } from "@/lib/schemas/pagination";
import { cursorPage } from "./cursor-page";

/** A storage key: 24 random base64url characters (144 bits) and the type's extension. */
const STORAGE_KEY = /^[A-Za-z0-9_-]{24}\.(png|jpg|gif|webp)$/;

const serializeMedia = (m: Media): MediaRecord => ({
  id: m.id,
  url: mediaUrl(m.storage_key),
  filename: m.filename,
  content_type: m.content_type as MediaRecord["content_type"],
  size: m.size,
  created_at: m.created_at.toISOString(),
});

/**
 * Stores an uploaded image: PNG, JPEG, GIF or WebP by its own bytes, at most 5 MB, within the
 * organization's allowance. The bytes go to the store first and the record after it, so a record
 * always has its file; a refusal after the store (the allowance, checked under a per-organization
 * lock so two uploads cannot both squeeze in) removes the file again.
 */
export async function uploadMedia(ctx: OrgContext, filename: string, bytes: Buffer): Promise<MediaRecord> {
  if (bytes.length > MAX_MEDIA_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", MEDIA_TOO_LARGE);
  if (bytes.length === 0) throw invalidField("file", "the file is empty");
  const type = imageTypeOf(bytes);
  if (!type) throw invalidField("file", "must be a PNG, JPEG, GIF or WebP image (SVG is not accepted)");
  const storageKey = `${randomBytes(18).toString("base64url")}.${IMAGE_TYPES[type]}`;
  const store = mediaStore();
  await store.put(storageKey, bytes, type);
  try {
    const row = await db.$transaction(async (tx) => {
      const limit = env.mediaMaxBytesPerOrganization;
      if (limit > 0) {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('media:' || ${ctx.organizationId}))`;
        const [{ used }] = await tx.$queryRaw<
          { used: bigint | null }[]
        >`SELECT sum(size)::bigint AS used FROM media WHERE organization_id = ${ctx.organizationId}::uuid`;
        if (Number(used ?? 0) + bytes.length > limit) {
          throw new AppError("PAYLOAD_TOO_LARGE", `The media library is full (${Math.round(limit / 1024 / 1024)} MB): delete images you no longer use`);
        }
      }
      return tx.media.create({
        data: {
          organization_id: ctx.organizationId,
          filename: filename.trim().slice(0, 255) || `image.${IMAGE_TYPES[type]}`,
          content_type: type,
          size: bytes.length,
          storage_key: storageKey,
          created_by: ctx.userId,
        },
      });
    });
    return serializeMedia(row);
  } catch (error) {
    await store.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

export async function listMedia(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.media.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.media.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serializeMedia) };
}

/** Removes the record, then the file; emails already sent that show it show a broken image from then on. */
export async function deleteMedia(ctx: OrgContext, id: string) {
  const row = await db.media.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Media");
  await db.media.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  await mediaStore()
    .delete(row.storage_key)
    .catch(() => undefined);
  return { success: true };
}

/**
 * The image at a public URL, for GET /m/<key>. Looked up by its storage key alone: the URL is in
 * emails anyone may receive, and the key's 144 random bits are what keeps it from being guessed.
 */
export async function openMedia(storageKey: string) {
  if (!STORAGE_KEY.test(storageKey)) return null;
  const row = await db.media.findUnique({ where: { storage_key: storageKey }, select: { content_type: true, size: true, filename: true } });
  if (!row) return null;
  const object = await mediaStore().get(storageKey);
  return object ? { ...row, body: object.body } : null;
}
