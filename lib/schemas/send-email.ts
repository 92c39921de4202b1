import { z } from "zod";
import { dateTime, emailAddress, id, limits, tags, text } from "./common";
import { trackingFields } from "./tracking";

const NAMED_ADDRESS = /^\s*"?([^"<>]*?)"?\s*<([^<>\s]+)>\s*$/;

/** `Name <address>` or a bare address, as Resend accepts it. */
export function parseSender(value: string): { name: string | null; address: string } | null {
  const named = NAMED_ADDRESS.exec(value);
  const address = (named ? named[2] : value).trim();
  if (!emailAddress.safeParse(address).success) return null;
  const name = named?.[1].trim();
  return { name: name ? name : null, address };
}

/** What one email may carry (decisions.md, "The developer platform"). */
export const sendingLimits = {
  /** Addresses in each of `to`, `cc`, `bcc` and `reply_to`. */
  recipients: 50,
  headers: 20,
  headerName: 76,
  /** A header line is at most 998 characters (RFC 5322 §2.1.1); the name and ": " take the rest. */
  headerValue: 900,
  attachments: 20,
  /** Decoded bytes of all attachments of one email together. */
  attachmentBytes: 10 * 1024 * 1024,
  filename: 255,
  contentType: 127,
  contentId: 200,
  scheduleDays: 30,
  batch: 100,
} as const;

const sender = text(limits.name + limits.email + 5)
  .refine((value) => parseSender(value) !== null, "must be an email address or `Name <address>`")
  .meta({ description: "`address` or `Name <address>`. Without an inbox it must be at a verified domain of the organization." });

const variableValue = z.union([text(limits.metadataValue), z.number(), z.boolean(), z.null()]);

const addresses = (what: string) =>
  z
    .array(emailAddress)
    .max(sendingLimits.recipients)
    .meta({ description: `${what}: at most ${sendingLimits.recipients} addresses.` });

const oneOrMore = (what: string) =>
  z.union([emailAddress, z.array(emailAddress).min(1).max(sendingLimits.recipients)]).meta({
    description: `${what}: one address, or an array of 1 to ${sendingLimits.recipients}.`,
  });

// A name of token characters and a value without line breaks or other control characters: nothing
// a caller writes can end the header and start another (header injection), or the header block.
const HEADER_NAME = /^X-[A-Za-z0-9][A-Za-z0-9-]*$/i;
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

const customHeaders = z
  .record(
    z.string().max(sendingLimits.headerName).regex(HEADER_NAME, "must start with X- and hold only letters, digits and hyphens"),
    z
      .string()
      .max(sendingLimits.headerValue)
      .refine((value) => !CONTROL.test(value), "must not contain line breaks or other control characters"),
  )
  .refine((value) => Object.keys(value).length <= sendingLimits.headers, `must have at most ${sendingLimits.headers} headers`)
  .refine((value) => new Set(Object.keys(value).map((name) => name.toLowerCase())).size === Object.keys(value).length, "must not name a header twice")
  .meta({ description: `Your own headers, added to the message as given: names start with \`X-\`, at most ${sendingLimits.headers}.` });

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
// atext and dots (RFC 5322 msg-id), no angle brackets: `cid:logo` in the HTML names `Content-ID: <logo>`.
const CONTENT_ID = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.@]+$/;

const attachmentInput = z.object({
  filename: z
    .string()
    .min(1)
    .max(sendingLimits.filename)
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not contain control characters"),
  content: z.string().meta({
    description: `The file, base64. At most ${sendingLimits.attachmentBytes / 1024 / 1024} MB decoded for all attachments of an email together (413 PAYLOAD_TOO_LARGE).`,
  }),
  content_type: z.string().max(sendingLimits.contentType).regex(MIME_TYPE, "must be a MIME type, e.g. application/pdf").optional().meta({
    description: "Guessed from the file name when omitted.",
  }),
  content_id: z
    .string()
    .min(1)
    .max(sendingLimits.contentId)
    .regex(CONTENT_ID, "must be letters, digits and . @ - _ (no spaces or angle brackets)")
    .optional()
    .meta({
      description: 'Makes the attachment an inline image the HTML shows with `<img src="cid:<content_id>">`.',
    }),
});

const emailFields = z
  .object({
    from: sender.optional(),
    to: oneOrMore("Recipients"),
    cc: addresses("Carbon copies").optional(),
    bcc: addresses("Blind carbon copies, in the envelope only: no header of the message names them").optional(),
    subject: text(limits.subject).optional().meta({ description: "Required unless the template gives one." }),
    html: text(limits.html).optional(),
    text: text(limits.text).optional().meta({ description: "Derived from the HTML when omitted." }),
    template_id: id.optional(),
    variables: z
      .record(text(limits.metadataKey).min(1), variableValue)
      .optional()
      .meta({ description: "Values for the `{{placeholders}}`; a contact with the (first) `to` address supplies the ones not given." }),
    reply_to: oneOrMore("Reply-To").optional(),
    inbox_id: id.optional().meta({ description: "Send through this inbox (its SMTP server and, unless `from` is given, its sender)." }),
    tags: tags.optional(),
    headers: customHeaders.optional(),
    attachments: z.array(attachmentInput).max(sendingLimits.attachments).optional(),
    scheduled_at: dateTime.optional().meta({
      description: `When to send, at most ${sendingLimits.scheduleDays} days ahead; the email is \`scheduled\` until then (POST /v1/emails/{id}/cancel cancels it). A time already past sends at once.`,
    }),
    track_opens: trackingFields.track_opens.optional(),
    track_clicks: trackingFields.track_clicks.optional(),
    utm: trackingFields.utm.optional(),
  })
  .meta({ id: "SendEmailInput" });

type EmailFields = z.infer<typeof emailFields>;

function checkEmail(value: EmailFields, ctx: z.RefinementCtx) {
  if (!value.html && !value.text && !value.template_id) {
    ctx.addIssue({ code: "custom", path: ["html"], message: "html, text or template_id is required" });
  }
  if (!value.subject && !value.template_id) ctx.addIssue({ code: "custom", path: ["subject"], message: "is required without a template" });
  if (!value.from && !value.inbox_id) ctx.addIssue({ code: "custom", path: ["from"], message: "is required without an inbox_id" });
}

export const sendEmailInput = emailFields.superRefine(checkEmail);
export type SendEmailInput = z.infer<typeof sendEmailInput>;

/** `POST /v1/emails/batch`: 1 to 100 emails, validated whole; issues name the index (`3.to`). */
export const sendEmailBatchInput = z
  .array(
    emailFields.superRefine((value, ctx) => {
      checkEmail(value, ctx);
      if (value.attachments !== undefined)
        ctx.addIssue({ code: "custom", path: ["attachments"], message: "are not accepted in a batch: send such an email alone" });
    }),
  )
  .min(1)
  .max(sendingLimits.batch)
  .meta({ description: `1 to ${sendingLimits.batch} emails, each as \`POST /v1/emails\` takes it except \`attachments\`.` });

export const sendEmailBatchResponse = z.object({
  data: z.array(z.object({ id })).meta({ description: "The new emails' ids, in the order of the request." }),
});
sendEmailBatchResponse.register(z.globalRegistry, { id: "EmailBatch" });
