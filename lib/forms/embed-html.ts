import { HONEYPOT_FIELD } from "@/lib/schemas/forms";
import type { FormInput } from "./form-inputs";

const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The snippet a marketer pastes into another site: a plain HTML form posting to the public endpoint
 * (it redirects to the form's `redirect_url` or its thank-you page), with the honeypot input hidden
 * off-screen. No script: it works wherever HTML does, and a page that prefers fetch can send the
 * same fields as JSON (the endpoint allows any origin).
 */
export function embedHtml(submitUrl: string, inputs: FormInput[]): string {
  const lines = inputs.map((input) => {
    const required = input.required ? " required" : "";
    const control =
      input.type === "checkbox"
        ? `<input type="checkbox" name="${escape(input.key)}" value="true">`
        : `<input type="${input.type}" name="${escape(input.key)}"${input.type === "email" ? ' autocomplete="email"' : ""}${required}>`;
    return `  <p><label>${escape(input.label)}<br>${control}</label></p>`;
  });
  return [
    `<form action="${escape(submitUrl)}" method="post" accept-charset="utf-8">`,
    ...lines,
    `  <input type="text" name="${HONEYPOT_FIELD}" value="" tabindex="-1" autocomplete="off" aria-hidden="true" style="position:absolute;left:-10000px">`,
    `  <p><button type="submit">Subscribe</button></p>`,
    `</form>`,
  ].join("\n");
}
