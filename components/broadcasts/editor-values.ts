import { documentOf, documentText } from "@/components/email-editor/document-text";
import type { UpdateBroadcastInput } from "@/lib/schemas/broadcasts";
import type { Broadcast } from "./broadcast-types";
import { WEEKDAYS, type Weekday } from "@/lib/domain/sending-window";
import { toTrackingBody, toTrackingValues, trackingFieldNames, type TrackingValues } from "./tracking-values";

/**
 * The editor's form values: text inputs hold "" where the API holds null, the schedule is a
 * datetime-local value in the user's time zone, and the inbox choice has an explicit mode.
 */
export type EditorValues = TrackingValues & {
  name: string;
  subject: string;
  from_name: string;
  from_email: string;
  reply_to: string;
  preview_text: string;
  template_id: string;
  segment_id: string;
  topic_id: string;
  inbox_mode: "single" | "rotate";
  inbox_id: string;
  inbox_ids: string[];
  sending_speed: string;
  scheduled_at: string;
  tags: string[];
  sequence_mode: "sales" | "marketing";
  sequence_exit_conditions: { exit_if_in_segment_ids: string[]; exit_if_not_in_segment_ids: string[] };
  /** Off: the broadcast has no window (`sending_window: null`); the fields below keep their values meanwhile. */
  window_enabled: boolean;
  sending_window: { days: Weekday[]; start: string; end: string; timezone: string };
  stop_on_company_reply: boolean;
  html_content: string;
  text_content: string;
  /** The visual editor's document; null when the content is hand-written HTML (or empty). */
  content_json: string;
  /** The A/B test's variants of the first email (kept while the test is off, so switching back restores them). */
  variants: AbVariantValues[];
  ab_test: { enabled: boolean; test_percent: string; metric: "unique_opens" | "unique_clicks"; wait_minutes: string };
};

export type AbVariantValues = { subject: string; html_content: string; text_content: string | null };

/** The body fields the editor sends; server errors on these paths land on the field of the same name. */
export const editorFields = [
  "name",
  "subject",
  "from_name",
  "from_email",
  "reply_to",
  "preview_text",
  "template_id",
  "segment_id",
  "topic_id",
  "inbox_id",
  "inbox_ids",
  "sending_speed",
  "scheduled_at",
  "tags",
  "sequence_mode",
  "sequence_exit_conditions",
  "sending_window",
  "stop_on_company_reply",
  "html_content",
  "text_content",
  "content_json",
  ...trackingFieldNames,
  "variants",
  "ab_test",
] as const;

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as a datetime-local value in the browser's time zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as an ISO instant in UTC; an unreadable value is passed on for the schema to refuse. */
function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

const orNull = (value: string) => (value.trim() === "" ? null : value);

export function toEditorValues(b: Broadcast): EditorValues {
  return {
    name: b.name,
    subject: b.subject,
    from_name: b.from_name ?? "",
    from_email: b.from_email,
    reply_to: b.reply_to ?? "",
    preview_text: b.preview_text ?? "",
    template_id: b.template_id ?? "",
    segment_id: b.segment_id ?? "",
    topic_id: b.topic_id ?? "",
    inbox_mode: b.inbox_ids.length > 0 ? "rotate" : "single",
    inbox_id: b.inbox_id ?? "",
    inbox_ids: b.inbox_ids,
    sending_speed: b.sending_speed ?? "",
    scheduled_at: toLocalInput(b.scheduled_at),
    tags: b.tags,
    sequence_mode: b.sequence_mode,
    sequence_exit_conditions: {
      exit_if_in_segment_ids: b.sequence_exit_conditions?.exit_if_in_segment_ids ?? [],
      exit_if_not_in_segment_ids: b.sequence_exit_conditions?.exit_if_not_in_segment_ids ?? [],
    },
    window_enabled: b.sending_window !== null,
    // Office hours in each recipient's zone: what a window is for, offered when it is switched on.
    sending_window: b.sending_window ?? { days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:00", timezone: "contact" },
    stop_on_company_reply: b.stop_on_company_reply,
    html_content: b.html_content ?? "",
    text_content: b.text_content ?? "",
    content_json: documentText(b.content_json),
    ...toTrackingValues(b),
    variants: (b.variants ?? [{ subject: b.subject }, { subject: "" }]).map((v) => ({
      subject: v.subject,
      html_content: v.html_content ?? "",
      text_content: v.text_content ?? null,
    })),
    ab_test: {
      enabled: b.ab_test !== null,
      test_percent: String(b.ab_test?.test_percent ?? 20),
      metric: b.ab_test?.metric ?? "unique_opens",
      wait_minutes: String(b.ab_test?.wait_minutes ?? 240),
    },
  };
}

/** The A/B test as the API takes it: both halves, or neither (null removes the test). */
function abTestBody(v: EditorValues): Pick<UpdateBroadcastInput, "variants" | "ab_test"> {
  if (!v.ab_test.enabled) return { variants: null, ab_test: null };
  return {
    variants: v.variants.map((variant) => ({ subject: variant.subject, html_content: orNull(variant.html_content), text_content: variant.text_content })),
    ab_test: { test_percent: Number(v.ab_test.test_percent), metric: v.ab_test.metric, wait_minutes: Number(v.ab_test.wait_minutes) },
  };
}

/** Every field as PUT /v1/broadcasts/{id} takes it. */
export function toUpdateBody(v: EditorValues): UpdateBroadcastInput {
  const rotate = v.inbox_mode === "rotate";
  const exits = v.sequence_exit_conditions;
  return {
    name: v.name,
    subject: v.subject,
    from_name: v.from_name,
    from_email: v.from_email,
    reply_to: orNull(v.reply_to),
    preview_text: v.preview_text === "" ? null : v.preview_text,
    template_id: orNull(v.template_id),
    segment_id: orNull(v.segment_id),
    topic_id: orNull(v.topic_id),
    // One inbox or a rotation, never both: the other side is always cleared.
    inbox_id: rotate ? null : orNull(v.inbox_id),
    inbox_ids: rotate ? v.inbox_ids : [],
    sending_speed: (orNull(v.sending_speed) as UpdateBroadcastInput["sending_speed"]) ?? null,
    scheduled_at: fromLocalInput(v.scheduled_at),
    tags: v.tags,
    sequence_mode: v.sequence_mode,
    ...abTestBody(v),
    sequence_exit_conditions:
      exits.exit_if_in_segment_ids.length || exits.exit_if_not_in_segment_ids.length
        ? { exit_if_in_segment_ids: exits.exit_if_in_segment_ids, exit_if_not_in_segment_ids: exits.exit_if_not_in_segment_ids }
        : null,
    sending_window: v.window_enabled ? { ...v.sending_window, days: WEEKDAYS.filter((day) => v.sending_window.days.includes(day)) } : null,
    stop_on_company_reply: v.stop_on_company_reply,
    ...toTrackingBody(v),
    // A document is rendered to HTML and text on the server, which refuses both at once.
    ...(v.content_json
      ? { content_json: documentOf(v.content_json), html_content: undefined, text_content: undefined }
      : { content_json: null, html_content: v.html_content === "" ? null : v.html_content, text_content: v.text_content === "" ? null : v.text_content }),
  };
}

/**
 * Only what changed since the broadcast was loaded, so a save never overwrites a field someone
 * else changed meanwhile. The inbox pair always travels together.
 */
export function changedBody(current: EditorValues, initial: EditorValues): UpdateBroadcastInput {
  const now = toUpdateBody(current);
  const before = toUpdateBody(initial);
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(now) as (keyof UpdateBroadcastInput)[]) {
    if (JSON.stringify(now[key]) !== JSON.stringify(before[key])) changed[key] = now[key];
  }
  if ("inbox_id" in changed || "inbox_ids" in changed) {
    changed.inbox_id = now.inbox_id;
    changed.inbox_ids = now.inbox_ids;
  }
  if ("variants" in changed || "ab_test" in changed) {
    changed.variants = now.variants;
    changed.ab_test = now.ab_test;
  }
  return changed as UpdateBroadcastInput;
}
