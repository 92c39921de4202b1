import { z } from "zod";
import { dateTime, id, requiredText } from "./common";
import { MAX_MEDIA_BYTES } from "./media-limits";

/** The JSON form's body: the base64 of the largest image and its name. */
export const MAX_MEDIA_BODY_BYTES = Math.ceil(MAX_MEDIA_BYTES / 3) * 4 + 64 * 1024;

export const uploadMediaInput = z.object({
  filename: requiredText(255),
  content: z.base64().meta({ description: "The file's bytes in base64 (or send multipart/form-data with one `file` part instead)." }),
});

export const media = z
  .object({
    id,
    url: z.string().meta({ description: "Absolute; served by the application with a year-long Cache-Control." }),
    filename: z.string(),
    content_type: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
    size: z.number().int(),
    created_at: dateTime,
  })
  .meta({ id: "Media" });
export type MediaRecord = z.infer<typeof media>;
