import { openMedia } from "@/lib/services/media";

/** A year: the bytes under a key never change (a new upload gets a new key), so caches may keep them. */
const CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * GET /m/<key>: an uploaded image, for recipients' mail clients and the dashboard. The type is the
 * one found in the bytes at upload, never the client's claim; `nosniff` (every answer) and a
 * policy that lets nothing run keep a browser from treating it as anything but an image.
 */
export async function serveMedia(key: string): Promise<Response> {
  const found = await openMedia(key);
  if (!found) return new Response("Not found", { status: 404, headers: { "cache-control": "no-store", "content-type": "text/plain; charset=utf-8" } });
  return new Response(found.body, {
    headers: {
      "content-type": found.content_type,
      "content-length": String(found.size),
      "cache-control": CACHE_CONTROL,
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "cross-origin",
    },
  });
}
