import { documentOf, documentText } from "@/components/email-editor/document-text";
import type { CreateStepInput } from "@/lib/schemas/steps";
import type { SequenceStep } from "./broadcast-types";
import { defaultTracking, toTrackingBody, toTrackingValues, trackingFieldNames, type TrackingValues } from "./tracking-values";

/** `business_days`: Mondays to Fridays in the recipient's (or the window's) zone, sent as `delay_business_days`. */
export type DelayUnit = "minutes" | "hours" | "days" | "business_days";
type MinuteUnit = Exclude<DelayUnit, "business_days">;

const minutesPer: Record<MinuteUnit, number> = { minutes: 1, hours: 60, days: 1440 };

export type StepValues = TrackingValues & {
  delay_amount: number;
  delay_unit: DelayUnit;
  subject: string;
  content_source: "write" | "template";
  html_content: string;
  text_content: string;
  content_json: string;
  template_id: string;
};

export const emptyStep: StepValues = {
  delay_amount: 2,
  delay_unit: "days",
  subject: "",
  content_source: "write",
  html_content: "",
  text_content: "",
  content_json: "",
  template_id: "",
  ...defaultTracking,
};

/** The largest unit that shows the delay exactly: 4320 minutes is "3 days", 90 is "90 minutes". */
function splitDelay(minutes: number): { amount: number; unit: MinuteUnit } {
  if (minutes > 0 && minutes % minutesPer.days === 0) return { amount: minutes / minutesPer.days, unit: "days" };
  if (minutes > 0 && minutes % minutesPer.hours === 0) return { amount: minutes / minutesPer.hours, unit: "hours" };
  return { amount: minutes, unit: "minutes" };
}

export function describeDelay(minutes: number, businessDays: number | null = null): string {
  if (businessDays) return `Wait ${businessDays} business ${businessDays === 1 ? "day" : "days"}`;
  if (minutes === 0) return "Right after the previous email";
  const { amount, unit } = splitDelay(minutes);
  return `Wait ${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;
}

export function toStepValues(step: SequenceStep): StepValues {
  const { amount, unit } = step.delay_business_days ? { amount: step.delay_business_days, unit: "business_days" as const } : splitDelay(step.delay_minutes);
  return {
    delay_amount: amount,
    delay_unit: unit,
    subject: step.subject ?? "",
    content_source: step.template_id ? "template" : "write",
    html_content: step.html_content ?? "",
    text_content: step.text_content ?? "",
    content_json: documentText(step.content_json),
    template_id: step.template_id ?? "",
    ...toTrackingValues(step),
  };
}

/** The step as POST/PUT …/steps take it; the content source not chosen is cleared. */
export function toStepBody(v: StepValues): CreateStepInput {
  const write = v.content_source === "write";
  const amount = Number.isFinite(v.delay_amount) ? v.delay_amount : Number.NaN;
  return {
    ...(v.delay_unit === "business_days" ? { delay_business_days: amount } : { delay_minutes: Math.round(amount * minutesPer[v.delay_unit]) }),
    subject: v.subject.trim() === "" ? null : v.subject,
    // A document is rendered to HTML and text on the server, which refuses both at once.
    ...(write && v.content_json
      ? { content_json: documentOf(v.content_json) }
      : {
          content_json: null,
          html_content: write && v.html_content.trim() ? v.html_content : null,
          text_content: write && v.text_content.trim() ? v.text_content : null,
        }),
    template_id: !write && v.template_id ? v.template_id : null,
    ...toTrackingBody(v),
  };
}

/** Where a body problem shows in the step form. */
export function stepFieldFor(path: string, values: StepValues): string | undefined {
  if (path === "delay_minutes" || path === "delay_business_days") return "delay_amount";
  // "content or template required" is reported on html_content; show it where the user is looking.
  if (path === "html_content" && values.content_source === "template") return "template_id";
  return undefined;
}

export const stepFields = ["delay_amount", "subject", "html_content", "text_content", "content_json", "template_id", ...trackingFieldNames] as const;
