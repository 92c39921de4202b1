// The confirmation email a new form starts with, apart from the forms' schemas: the form builder
// imports these, and importing lib/schemas/forms.ts would bring zod (about 55 KB gzipped) into its page.
export const DEFAULT_CONFIRMATION_SUBJECT = "Please confirm your subscription";
export const DEFAULT_CONFIRMATION_HTML =
  "<p>Hello{{first_name| }} {{first_name}},</p><p>Please confirm that you want to receive emails from {{organization_name}}.</p>" +
  '<p><a href="{{confirm_url}}">Yes, subscribe me</a></p><p>If you did not ask for this, ignore this email: you will not be subscribed.</p>';
