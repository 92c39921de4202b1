import { z } from "zod";
import { id } from "./common";

/** `?step_id=`: a follow-up step of the broadcast instead of its first email (checks, previews). */
export const stepQuery = z.object({ step_id: id.optional() });

export const previewQuery = stepQuery.extend({
  contact_id: id
    .optional()
    .meta({ description: "Render as this contact gets it; without it, placeholders at their fallbacks and every conditional block shown." }),
});

export const emailPreview = z
  .object({ subject: z.string(), preview_text: z.string(), html: z.string().nullable(), text: z.string() })
  .meta({ id: "EmailPreview", description: "The email as the sender would render it: placeholders filled, conditional blocks chosen, footer added." });

const checkStatus = z.enum(["pass", "warning", "error", "skipped"]);

export const presendCheck = z.object({
  id: z.enum(["subject", "preview_text", "content", "unsubscribe", "links", "image_alt", "placeholders", "size", "spam"]),
  status: checkStatus,
  title: z.string(),
  message: z.string(),
  items: z.array(z.string()).meta({ description: "What the check is about: the offending links, images or placeholders (at most 20)." }),
});

export const presendChecks = z.object({
  ok: z.boolean().meta({ description: "No check failed with an error. Warnings may be sent anyway." }),
  errors: z.number().int(),
  warnings: z.number().int(),
  checks: z.array(presendCheck),
});
presendChecks.register(z.globalRegistry, { id: "PresendChecks" });
export type PresendCheck = z.infer<typeof presendCheck>;
export type PresendChecks = z.infer<typeof presendChecks>;

export const contactFields = z.object({
  fields: z.array(z.object({ name: z.string(), label: z.string() })).meta({ description: "The contact's own fields." }),
  metadata_keys: z
    .array(z.object({ key: z.string(), contacts: z.number().int() }))
    .meta({ description: "Metadata keys present on the organization's contacts (most used first, at most 100, counted over up to 10 000 contacts)." }),
});
