import { z } from "zod";
import { dateTime, emailAddress, id, limits, requiredText, text } from "./common";

/** The contact fields a form may ask for; any other key must be a typed contact property. */
export const FORM_CONTACT_FIELDS = ["email", "first_name", "last_name"] as const;
const MAX_FORM_FIELDS = 20;
const MAX_FORM_TOPICS = 50;
/** The honeypot: an input people never see, which bots fill in. */
export const HONEYPOT_FIELD = "_hp";
/** The placeholder the confirmation email must carry, replaced by the link that subscribes. */
const CONFIRM_PLACEHOLDER = "{{confirm_url}}";

export { DEFAULT_CONFIRMATION_HTML, DEFAULT_CONFIRMATION_SUBJECT } from "./form-defaults";

const fieldKey = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,49}$/, "must be a contact field or a typed property key")
  .meta({ description: "`email`, `first_name`, `last_name` or a typed contact property's key." });

const redirectUrl = z
  .url({ protocol: /^https?$/, message: "must be an http or https URL" })
  .max(limits.url)
  .refine((url) => !url.includes("\u0000"), "must not contain NUL characters");

const formFields = z.object({
  name: requiredText(limits.name),
  fields: z.array(fieldKey).max(MAX_FORM_FIELDS).meta({ description: "Inputs in order; `email` is always asked, first when not listed." }),
  segment_id: id.nullable(),
  topic_ids: z.array(id).max(MAX_FORM_TOPICS).meta({ description: "Topics a confirmed contact is subscribed to." }),
  double_opt_in: z.boolean().meta({ description: "Default true: subscribed only once the confirmation email's link is opened." }),
  redirect_url: redirectUrl.nullable().meta({ description: "Where a plain HTML form goes after submitting; a thank-you page otherwise." }),
  confirmation_subject: requiredText(limits.subject),
  confirmation_html: requiredText(limits.html).meta({
    description: "Must hold `{{confirm_url}}`; may use `{{organization_name}}` and the form's fields.",
  }),
  inbox_id: id.nullable().meta({ description: "Sends the confirmation through this inbox (its address unless `from_email`)." }),
  from_email: emailAddress.nullable().meta({ description: "At a verified domain; required with double opt-in unless `inbox_id`." }),
  from_name: text(limits.name).nullable(),
});

const checked = <T extends z.ZodType<{ confirmation_html?: string }>>(schema: T) =>
  schema.refine((form) => form.confirmation_html === undefined || form.confirmation_html.includes(CONFIRM_PLACEHOLDER), {
    path: ["confirmation_html"],
    message: "must contain {{confirm_url}}, the link that subscribes",
  });

// One named body for create and update (the document stays small): `name` is required on create, checked by the service.
export const formInput = checked(formFields.partial()).meta({ id: "FormInput", description: "`name` is required on create." });
export type CreateFormInput = z.infer<typeof formInput>;
export type UpdateFormInput = z.infer<typeof formInput>;

export const form = formFields
  .extend({
    id,
    organization_id: id,
    hosted_url: z.string().meta({ description: "The hosted page." }),
    submit_url: z.string().meta({ description: "The public endpoint: POST form-encoded or JSON, CORS allowed, no key." }),
    embed_html: z.string().meta({ description: "An HTML form to paste into another site." }),
    submissions_count: z.number().int(),
    confirmed_count: z.number().int(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: "Form" });
