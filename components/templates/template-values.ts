import { documentOf, documentText } from "@/components/email-editor/document-text";
import type { CreateTemplateInput } from "@/lib/schemas/templates";
import type { Template } from "@/lib/client/resources/templates";

export type TemplateValues = {
  name: string;
  subject: string;
  preview_text: string;
  from_name: string;
  from_email: string;
  reply_to: string;
  tags: string[];
  html_content: string;
  text_content: string;
  content_json: string;
};

export const templateFields = [
  "name",
  "subject",
  "preview_text",
  "from_name",
  "from_email",
  "reply_to",
  "tags",
  "html_content",
  "text_content",
  "content_json",
] as const;

const starterHtml = `<!doctype html>
<html>
  <body style="margin:0;padding:24px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;">
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;">
      <tr>
        <td style="padding:32px;">
          <h1 style="margin:0 0 12px;font-size:22px;color:#18181b;">Hi {{first_name|there}},</h1>
          <p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#3f3f46;">Write your message here.</p>
          <a href="https://example.com" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:600;">Call to action</a>
        </td>
      </tr>
    </table>
  </body>
</html>`;

export const emptyTemplate: TemplateValues = {
  name: "",
  subject: "",
  preview_text: "",
  from_name: "",
  from_email: "",
  reply_to: "",
  tags: [],
  html_content: starterHtml,
  text_content: "",
  content_json: "",
};

export function toTemplateValues(t: Template): TemplateValues {
  return {
    name: t.name,
    subject: t.subject,
    preview_text: t.preview_text ?? "",
    from_name: t.from_name ?? "",
    from_email: t.from_email ?? "",
    reply_to: t.reply_to ?? "",
    tags: t.tags,
    html_content: t.html_content,
    text_content: t.text_content,
    content_json: documentText(t.content_json),
  };
}

const orNull = (value: string) => (value.trim() === "" ? null : value);

/** The template as POST/PUT /v1/templates take it; `variables` are left for the server to find. */
export function toTemplateBody(v: TemplateValues): CreateTemplateInput {
  return {
    name: v.name,
    subject: v.subject,
    preview_text: orNull(v.preview_text),
    from_name: orNull(v.from_name),
    from_email: orNull(v.from_email),
    reply_to: orNull(v.reply_to),
    tags: v.tags,
    // A document is rendered to HTML and text on the server, which refuses both at once.
    ...(v.content_json ? { content_json: documentOf(v.content_json) } : { content_json: null, html_content: v.html_content, text_content: v.text_content }),
  };
}
