import { DEFAULT_CONFIRMATION_HTML, DEFAULT_CONFIRMATION_SUBJECT } from "@/lib/schemas/form-defaults";
import type { FormRecord } from "@/lib/client/resources/forms";

/** The editor's state: the form's body, with "none" as an empty string where the API takes null. */
export type FormValues = {
  name: string;
  fields: string[];
  segment_id: string;
  topic_ids: string[];
  double_opt_in: boolean;
  redirect_url: string;
  inbox_id: string;
  from_email: string;
  from_name: string;
  confirmation_subject: string;
  confirmation_html: string;
};

export const emptyForm: FormValues = {
  name: "",
  fields: ["email", "first_name"],
  segment_id: "",
  topic_ids: [],
  double_opt_in: true,
  redirect_url: "",
  inbox_id: "",
  from_email: "",
  from_name: "",
  confirmation_subject: DEFAULT_CONFIRMATION_SUBJECT,
  confirmation_html: DEFAULT_CONFIRMATION_HTML,
};

export const toValues = (form: FormRecord): FormValues => ({
  name: form.name,
  fields: form.fields,
  segment_id: form.segment_id ?? "",
  topic_ids: form.topic_ids,
  double_opt_in: form.double_opt_in,
  redirect_url: form.redirect_url ?? "",
  inbox_id: form.inbox_id ?? "",
  from_email: form.from_email ?? "",
  from_name: form.from_name ?? "",
  confirmation_subject: form.confirmation_subject,
  confirmation_html: form.confirmation_html,
});

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

export const toBody = (values: FormValues) => ({
  name: values.name,
  fields: values.fields,
  segment_id: orNull(values.segment_id),
  topic_ids: values.topic_ids,
  double_opt_in: values.double_opt_in,
  redirect_url: orNull(values.redirect_url),
  inbox_id: orNull(values.inbox_id),
  from_email: orNull(values.from_email),
  from_name: orNull(values.from_name),
  confirmation_subject: values.confirmation_subject,
  confirmation_html: values.confirmation_html,
});

/** The editor's field a refusal's path belongs on: `fields.2` on the fields, `topic_ids.0` on the topics. */
export const fieldOfPath = (path: string) => path.split(".")[0];

/** Moves the item at `index` one place up (-1) or down (+1). */
export function moved<T>(list: T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return list;
  const next = [...list];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}
