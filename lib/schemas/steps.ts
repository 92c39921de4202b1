import { z } from "zod";
import { emailDocument } from "@/lib/email-doc/document";
import { dateTime, id, limits, text } from "./common";
import { trackingFields } from "./tracking";

/** A year: a longer wait is a typo, and the dispatcher's arithmetic stays far from overflow. */
const MAX_DELAY_MINUTES = 525_600;
const MAX_POSITION = 10_000;
/** A year of working days. */
const MAX_BUSINESS_DAYS = 260;

export const stepParams = z.object({ broadcastId: id, stepId: id });
export const broadcastStepsParams = z.object({ broadcastId: id });

const stepFields = z.object({
  position: z
    .number()
    .int()
    .min(1)
    .max(MAX_POSITION)
    .meta({ description: "1-based place in the sequence; later steps move down. Without it a new step goes last." }),
  delay_minutes: z.number().int().min(0).max(MAX_DELAY_MINUTES).meta({
    description: "Minutes to wait after the previous step (or the broadcast itself for the first step). 0 when the step waits `delay_business_days` instead.",
  }),
  delay_business_days: z.number().int().min(1).max(MAX_BUSINESS_DAYS).nullable().meta({
    description:
      "Instead of `delay_minutes` (setting one clears the other): business days (Monday to Friday, in the sending window's zone or the recipient's) after the previous email, at the same time of day; a weekend counts from Monday 00:00.",
  }),
  subject: text(limits.subject).nullable().meta({ description: "In sales mode, left empty to reply in the same thread." }),
  html_content: text(limits.html).nullable(),
  text_content: text(limits.text).nullable(),
  content_json: emailDocument.nullable().meta({
    description:
      "Given, html_content and text_content are rendered from it (and cannot be given too); `null`, or html_content or text_content alone, drops it.",
  }),
  template_id: id.nullable(),
  ...trackingFields,
});

type StepContent = { html_content?: string | null; text_content?: string | null; content_json?: unknown; template_id?: string | null };

/** A step sends something: its own HTML or text, or a template. */
export const hasStepContent = (step: StepContent) => Boolean(step.html_content?.trim() || step.text_content?.trim() || step.content_json || step.template_id);

export const STEP_CONTENT_MESSAGE = "html_content, text_content, content_json or template_id is required";

type StepDelay = { delay_minutes?: number; delay_business_days?: number | null };

/** One delay at a time: minutes or business days (a business-day step stores 0 minutes). */
function refuseBothDelays(value: StepDelay, ctx: z.RefinementCtx) {
  if (value.delay_business_days != null && value.delay_minutes !== undefined && value.delay_minutes !== 0) {
    ctx.addIssue({ code: "custom", path: ["delay_business_days"], message: "cannot be combined with delay_minutes" });
  }
}

export const createStepInput = stepFields
  .partial()
  .refine(hasStepContent, { path: ["html_content"], message: STEP_CONTENT_MESSAGE })
  .refine((step) => step.delay_minutes !== undefined || step.delay_business_days != null, {
    path: ["delay_minutes"],
    message: "is required unless delay_business_days is given",
  })
  .superRefine(refuseBothDelays);
export type CreateStepInput = z.infer<typeof createStepInput>;

// Named: a new step takes the same fields (with content and a delay), written once (lib/openapi/schema-sharing.ts).
export const updateStepInput = stepFields
  .partial()
  .superRefine(refuseBothDelays)
  .meta({ id: "StepFields", description: "A sequence step's fields: any of them on update; a new step needs content and a delay." });
export type UpdateStepInput = z.infer<typeof updateStepInput>;

export const sequenceStep = z.object({
  id,
  broadcast_id: id,
  position: z.number().int(),
  delay_minutes: z.number().int(),
  delay_business_days: z.number().int().nullable().meta({ description: "Business days to wait instead of `delay_minutes`; null when the step waits minutes." }),
  subject: z.string().nullable(),
  html_content: z.string().nullable(),
  text_content: z.string().nullable(),
  content_json: emailDocument.nullable(),
  template_id: id.nullable(),
  ...trackingFields,
  created_at: dateTime,
  updated_at: dateTime,
});
sequenceStep.register(z.globalRegistry, { id: "SequenceStep" });
