import { z } from "zod";
import { emailDocument } from "@/lib/email-doc/document";
import { BroadcastPauseReason, BroadcastStatus, ResendAudience, SendingSpeed, SequenceMode } from "@/lib/generated/prisma/enums";
import { sendingSpeedReference } from "@/lib/domain/sending-speeds";
import { dateTime, emailAddress, id, limits, requiredText, tags, text } from "./common";
import { sendingWindow } from "./sending-window";
import { trackingFields } from "./tracking";

export const broadcastStatus = z.enum(BroadcastStatus).meta({ id: "BroadcastStatus" });
const broadcastPauseReason = z.enum(BroadcastPauseReason).meta({
  description: "Why the broadcast is paused: `manual` (a person, `POST /v1/broadcasts/{id}/pause`), `bounce_rate` or `complaint_rate` (a circuit breaker).",
});
const sendingSpeed = z.enum(SendingSpeed).meta({ id: "SendingSpeed", description: sendingSpeedReference });
const sequenceMode = z.enum(SequenceMode);

/** More inboxes than this in one rotation is a mistake, not a plan. */
const MAX_ROTATION_INBOXES = 100;
const MAX_EXIT_SEGMENTS = 100;

const distinct = (ids: string[]) => new Set(ids.map((value) => value.toLowerCase())).size === ids.length;

const segmentIds = z.array(id).max(MAX_EXIT_SEGMENTS).refine(distinct, "must not name a segment twice");

const sequenceExitConditions = z
  .object({
    exit_if_in_segment_ids: segmentIds.optional().meta({ description: "A recipient in any of these segments leaves the sequence." }),
    exit_if_not_in_segment_ids: segmentIds.optional().meta({ description: "A recipient missing from any of these segments leaves the sequence." }),
  })
  .meta({ id: "SequenceExitConditions", description: "Checked before each follow-up; a recipient matching any rule is removed from the sequence." });

const AB_TEST = { minVariants: 2, maxVariants: 4, minPercent: 5, maxPercent: 50, maxWaitMinutes: 43_200 } as const;

export const broadcastVariant = z
  .object({
    subject: requiredText(limits.subject),
    html_content: text(limits.html)
      .nullable()
      .optional()
      .meta({ description: "This variant's HTML; omitted or null: the broadcast's own content or template." }),
    text_content: text(limits.text).nullable().optional().meta({ description: "This variant's plain text; omitted or null: the broadcast's." }),
  })
  .meta({ id: "BroadcastVariant", description: "One version of the first email in an A/B test: its subject, and optionally its own content." });
export type BroadcastVariant = z.infer<typeof broadcastVariant>;

export const abTestSettings = z
  .object({
    test_percent: z.number().int().min(AB_TEST.minPercent).max(AB_TEST.maxPercent).meta({
      description: "The share of the audience (5 to 50 %) that receives the test, split evenly between the variants, drawn at random when sending starts.",
    }),
    metric: z.enum(["unique_opens", "unique_clicks"]).meta({
      description: "How the winner is chosen: the variant whose test recipients most often opened (or clicked), people only; machine opens do not count.",
    }),
    wait_minutes: z.number().int().min(1).max(AB_TEST.maxWaitMinutes).meta({
      description: "How long after the test share's emails are all created the winner is chosen and sent to the rest (1 minute to 30 days).",
    }),
  })
  .meta({
    id: "AbTest",
    description:
      "The A/B test of a broadcast with `variants`. Ties, and a test with no opens (or clicks) at all, go to the first variant (index 0). " +
      "Rates compared are unique opens (or clicks) over the variant's test recipients.",
  });
export type AbTestSettings = z.infer<typeof abTestSettings>;

const broadcastFields = z.object({
  name: requiredText(limits.name),
  subject: requiredText(limits.subject),
  from_email: emailAddress,
  from_name: text(limits.name),
  reply_to: emailAddress.nullable(),
  preview_text: text(limits.previewText).nullable(),
  html_content: text(limits.html).nullable().meta({ description: "Extension: the broadcast's own HTML, used when it has no template. At most 1 MB." }),
  text_content: text(limits.text).nullable().meta({ description: "Extension: the broadcast's own plain text, used when it has no template. At most 1 MB." }),
  content_json: emailDocument.nullable().meta({
    description:
      "Given, html_content and text_content are rendered from it (and cannot be given too); `null`, or html_content or text_content alone, drops it.",
  }),
  template_id: id.nullable(),
  segment_id: id.nullable(),
  topic_id: id.nullable(),
  scheduled_at: dateTime.nullable(),
  inbox_id: id.nullable().meta({
    description:
      "The inbox whose from name, from address and reply-to fill those fields when they are not given in the same request. `null` removes the association.",
  }),
  inbox_ids: z
    .array(id)
    .max(MAX_ROTATION_INBOXES)
    .refine(distinct, "must not name an inbox twice")
    .nullable()
    .meta({ description: "Inbox rotation. `null` or `[]` disables it. Cannot be combined with `inbox_id`." }),
  sending_speed: sendingSpeed.nullable(),
  sequence_exit_conditions: sequenceExitConditions.nullable(),
  sequence_mode: sequenceMode,
  sending_window: sendingWindow.nullable().meta({ description: "When its emails may go out, follow-ups included; `null`: any time." }),
  stop_on_company_reply: z.boolean().nullable().meta({
    description:
      "A reply from anyone at a recipient's domain ends the sequence for every recipient at that domain (free-mail domains such as gmail.com excepted). `null`: the default, true in `sales` mode and false in `marketing`.",
  }),
  tags,
  ...trackingFields,
  variants: z
    .array(broadcastVariant)
    .min(AB_TEST.minVariants)
    .max(AB_TEST.maxVariants)
    .nullable()
    .meta({ description: "A/B test: 2 to 4 variants of the first email; needs `ab_test` too. `null` removes the test." }),
  ab_test: abTestSettings.nullable(),
});

type InboxChoice = { inbox_id?: string | null; inbox_ids?: string[] | null };

function refuseInboxAndRotation(value: InboxChoice, ctx: z.RefinementCtx) {
  if (value.inbox_id && value.inbox_ids && value.inbox_ids.length > 0) {
    ctx.addIssue({ code: "custom", path: ["inbox_ids"], message: "cannot be combined with inbox_id" });
  }
}

// Named: the create's body is these fields with name and subject required (lib/openapi/schema-sharing.ts).
export const updateBroadcastInput = broadcastFields
  .partial()
  .superRefine(refuseInboxAndRotation)
  .meta({
    id: "BroadcastFields",
    description:
      "A broadcast's fields: any of them on update; name and subject required on create. With `inbox_id`, the inbox's from name, address and " +
      "reply-to fill those not given; `inbox_id` and a non-empty `inbox_ids` exclude each other (setting one clears the other). Ids must name " +
      "records of the organization, and inboxes verified ones (400 INBOX_NOT_VERIFIED, `details` naming each).",
  });
export type UpdateBroadcastInput = z.infer<typeof updateBroadcastInput>;

export const createBroadcastInput = broadcastFields
  .partial()
  .extend({ name: broadcastFields.shape.name, subject: broadcastFields.shape.subject })
  .superRefine((value, ctx) => {
    refuseInboxAndRotation(value, ctx);
    if (value.from_email === undefined && !value.inbox_id) {
      ctx.addIssue({ code: "custom", path: ["from_email"], message: "is required unless inbox_id is given" });
    }
  });
export type CreateBroadcastInput = z.infer<typeof createBroadcastInput>;

const resendAudience = z.enum(ResendAudience);

export const resendBroadcastInput = z.object({
  audience: resendAudience.meta({
    description: "`non_openers`: recipients of the first email no person opened; `non_clickers`: recipients who clicked nothing.",
  }),
  subject: requiredText(limits.subject),
  name: requiredText(limits.name).optional().meta({ description: "By default the original's name and the audience." }),
});
export type ResendBroadcastInput = z.infer<typeof resendBroadcastInput>;

const counter = z.number().int();

export const broadcast = z.object({
  id,
  organization_id: id,
  name: z.string(),
  subject: z.string(),
  from_email: z.string(),
  from_name: z.string().nullable(),
  reply_to: z.string().nullable(),
  preview_text: z.string().nullable(),
  html_content: z.string().nullable().meta({ description: "Extension: the broadcast's own HTML." }),
  text_content: z.string().nullable().meta({ description: "Extension: the broadcast's own plain text." }),
  content_json: emailDocument.nullable().meta({ description: "The visual editor's document, when the content was written with it." }),
  template_id: id.nullable(),
  segment_id: id.nullable(),
  topic_id: id.nullable(),
  inbox_id: id.nullable(),
  inbox_ids: z.array(id).meta({ description: "Inboxes used for rotation; empty when rotation is off." }),
  sending_speed: sendingSpeed.nullable(),
  status: broadcastStatus,
  total_recipients: counter,
  sent_count: counter,
  delivered_count: counter.meta({ description: "Emails the receiving system reported delivered (DSN). Relays that send no positive reports leave it at 0." }),
  opened_count: counter,
  clicked_count: counter,
  bounced_count: counter.meta({ description: "Hard bounces: refused during sending (5xx) or reported later by a delivery status notification." }),
  soft_bounced_count: counter.meta({ description: "Extension: emails reported delayed or temporarily refused (4.x.x), counted once each." }),
  complained_count: counter.meta({ description: "Extension: recipients who reported an email as spam (feedback loops)." }),
  replied_count: counter.meta({ description: "Extension." }),
  unsubscribed_count: counter.meta({ description: "Extension." }),
  failure_reason: z.string().nullable().meta({ description: "Extension: why a failed broadcast failed." }),
  paused_reason: broadcastPauseReason.nullable().meta({ description: "Extension: why a `paused` broadcast is paused; null otherwise." }),
  paused_at: dateTime.nullable().meta({ description: "Extension: when it was paused; null unless `paused`." }),
  scheduled_at: dateTime.nullable(),
  started_at: dateTime.nullable(),
  completed_at: dateTime.nullable(),
  tags: z.array(z.string()),
  sequence_exit_conditions: sequenceExitConditions.nullable(),
  sequence_mode: sequenceMode,
  sending_window: sendingWindow.nullable(),
  stop_on_company_reply: z.boolean().meta({ description: "Whether a reply from a recipient's company ends the sequence for colleagues at its domain." }),
  ...trackingFields,
  variants: z.array(broadcastVariant).nullable().meta({ description: "The A/B test's variants; null: no test." }),
  ab_test: abTestSettings.nullable(),
  ab_decide_at: dateTime.nullable().meta({ description: "Extension: when the A/B test's winner is chosen; null until the test share is out." }),
  ab_winner_index: z.number().int().nullable().meta({ description: "Extension: the winning variant's index; null until chosen." }),
  resend_of_id: id.nullable().meta({ description: "Extension: for a resend, the broadcast it resends." }),
  resend_audience: resendAudience.nullable().meta({ description: "Extension: for a resend, whom of the original's recipients it is for." }),
  created_by: id.nullable(),
  created_at: dateTime,
  updated_at: dateTime.meta({ description: "Extension." }),
});
broadcast.register(z.globalRegistry, { id: "Broadcast" });
