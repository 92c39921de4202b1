import { z } from "zod";
import { emailAddress, id, limits, tags, text } from "./common";

const NAMED_ADDRESS = /^\s*"?([^"<>]*?)"?\s*<([^<>\s]+)>\s*$/;

/** `Name <address>` or a bare address, as Resend accepts it. */
export function parseSender(value: string): { name: string | null; address: string } | null {
  const named = NAMED_ADDRESS.exec(value);
  const address = (named ? named[2] : value).trim();
  if (!emailAddress.safeParse(address).success) return null;
  const name = named?.[1].trim();
  return { name: name ? name : null, address };
}

const sender = text(limits.name + limits.email + 5)
  .refine((value) => parseSender(value) !== null, "must be an email address or `Name <address>`")
  .meta({ description: "`address` or `Name <address>`. Without an inbox it must be at a verified domain of the organization." });

const variableValue = z.union([text(limits.metadataValue), z.number(), z.boolean(), z.null()]);

export const sendEmailInput = z
  .object({
    from: sender.optional(),
    to: emailAddress,
    subject: text(limits.subject).optional().meta({ description: "Required unless the template gives one." }),
    html: text(limits.html).optional(),
    text: text(limits.text).optional().meta({ description: "Derived from the HTML when omitted." }),
    template_id: id.optional(),
    variables: z
      .record(text(limits.metadataKey).min(1), variableValue)
      .optional()
      .meta({ description: "Values for the `{{placeholders}}`; a contact with the `to` address supplies the ones not given." }),
    reply_to: emailAddress.optional(),
    inbox_id: id.optional().meta({ description: "Send through this inbox (its SMTP server and, unless `from` is given, its sender)." }),
    tags: tags.optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.html && !value.text && !value.template_id) {
      ctx.addIssue({ code: "custom", path: ["html"], message: "html, text or template_id is required" });
    }
    if (!value.subject && !value.template_id) ctx.addIssue({ code: "custom", path: ["subject"], message: "is required without a template" });
    if (!value.from && !value.inbox_id) ctx.addIssue({ code: "custom", path: ["from"], message: "is required without an inbox_id" });
  });
export type SendEmailInput = z.infer<typeof sendEmailInput>;
