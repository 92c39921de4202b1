import { IMAGE_TYPES } from "@/lib/media/image-type";

// Without zod (like filter-language.ts): the editor checks a file against these before reading it.

/** An image in an email is fetched by every recipient's client; 5 MB is already far more than one should weigh. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** What a refusal for size says, whether the service, the body reader or the editor finds it. */
export const MEDIA_TOO_LARGE = `An image may be at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`;

/**
 * Why the editor does not upload a file, or null: a type no mail client shows, or past the size
 * limit. Said before the file is read and sent (a 20 MB photo would go up as 27 MB of base64 to be
 * refused); the server still tells the type by the bytes.
 */
export function imageFileProblem(file: { name: string; size: number; type: string }): string | null {
  if (file.type && !(file.type in IMAGE_TYPES)) return `${file.name} is not a PNG, JPEG, GIF or WebP image (SVG is not accepted)`;
  if (file.size > MAX_MEDIA_BYTES)
    return `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB: ${MEDIA_TOO_LARGE.charAt(0).toLowerCase()}${MEDIA_TOO_LARGE.slice(1)}`;
  return null;
}
