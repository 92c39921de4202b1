import { z } from "zod";
import { emailDocument } from "@/lib/email-doc/document";
import { dateTime, emailAddress, id, limits, requiredText, tags, text } from "./common";

const MAX_VARIABLES = 200;

const templateFields = z.object({
  name: requiredText(limits.name),
  subject: requiredText(limits.subject).meta({ description: "May hold `{{placeholders}}`." }),
  html_content: text(limits.html).meta({ description: "May hold `{{placeholders}}`, e.g. `{{first_name|there}}` with a fallback." }),
  text_content: text(limits.text),
  content_json: emailDocument.nullable().meta({
    description:
      "Given, html_content and text_content are rendered from it (and cannot be given too); `null`, or html_content or text_content alone, drops it.",
  }),
  variables: z
    .array(requiredText(limits.name))
    .max(MAX_VARIABLES)
    .meta({ description: "Placeholder names. When omitted, the `{{names}}` found in subject, HTML and text." }),
  from_email: emailAddress.nullable().meta({ description: "Must be at a verified domain of the organization." }),
  from_name: text(limits.name).nullable(),
  reply_to: emailAddress.nullable(),
  preview_text: text(limits.previewText).nullable(),
  inbox_id: id.nullable().meta({
    description: "The inbox whose name, from address and reply-to fill those fields when they are not given in the same request.",
  }),
  tags,
});

export const createTemplateInput = templateFields.partial().extend({ name: templateFields.shape.name, subject: templateFields.shape.subject });
export type CreateTemplateInput = z.infer<typeof createTemplateInput>;

// Named: the create's body is these fields with name and subject required (lib/openapi/schema-sharing.ts).
export const updateTemplateInput = templateFields.partial().meta({
  id: "TemplateFields",
  description:
    "A template's fields: any of them on update; name and subject required on create. `from_email` must be at a verified domain or be a verified " +
    "inbox's address; with `inbox_id` (a verified inbox), its name, from address and reply-to fill those not given.",
});
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

export const template = z.object({
  id,
  organization_id: id,
  name: z.string(),
  subject: z.string(),
  html_content: z.string(),
  text_content: z.string(),
  content_json: emailDocument.nullable().meta({ description: "The visual editor's document, when the content was written with it." }),
  variables: z.array(z.string()),
  from_email: z.string().nullable(),
  from_name: z.string().nullable(),
  reply_to: z.string().nullable(),
  preview_text: z.string().nullable(),
  preview_html: z.string().meta({
    description: "Output only: the HTML with the preview text as a hidden preheader and placeholders shown as their fallback or `[name]`.",
  }),
  inbox_id: id.nullable(),
  tags: z.array(z.string()),
  created_by: id.nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});
template.register(z.globalRegistry, { id: "Template" });
