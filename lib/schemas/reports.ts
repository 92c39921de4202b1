import { z } from "zod";
import { broadcastStatus } from "./broadcasts";
import { dateTime, id, limits, requiredText } from "./common";

const count = z.number().int().min(0);
const fraction = z.number().min(0);

export const reportTotals = z.object({
  recipients: count.meta({ description: "Email records: one per recipient of each step (at the top level, the recipients of the first email)." }),
  sent: count.meta({ description: "Emails handed to the receiving server: accepted, or refused for good (bounced)." }),
  delivered: count.meta({ description: "Emails the receiving side reported delivered." }),
  delivery_reportable: count.meta({
    description:
      "Sent emails whose path can report delivery: a delivery report was asked of a relay that offers DSN (for mail sent before " +
      "this was noted: relay mail). Mail sent through an inbox cannot report it.",
  }),
  open_tracked: count.meta({
    description: "Emails the receiving server accepted whose HTML carried the open pixel (tracking on for the organization and the broadcast or step).",
  }),
  click_tracked: count.meta({ description: "Emails the receiving server accepted whose HTML had at least one link through a click redirect." }),
  opened: count.meta({ description: "Opens by people, every one." }),
  unique_opened: count.meta({ description: "Emails opened at least once by a person." }),
  clicked: count.meta({ description: "Clicks by people, every one." }),
  unique_clicked: count.meta({ description: "Emails with at least one click by a person." }),
  bounced: count,
  complained: count,
  unsubscribed: count,
  machine_opens: count.meta({ description: "Opens by privacy proxies, prefetchers and scanners: reported here, left out of `opened` and the rates." }),
  machine_clicks: count.meta({ description: "Clicks by link scanners and bots: reported here, left out of `clicked` and the rates." }),
  replied: count.meta({ description: "Emails their recipient answered (automatic answers not counted)." }),
});
reportTotals.register(z.globalRegistry, { id: "ReportTotals" });
export type ReportTotals = z.infer<typeof reportTotals>;

// A rate whose denominator is empty is null: "not reported" or "not tracked", never a 0 % nobody measured.
export const reportRates = z.object({
  delivery: fraction.nullable().meta({ description: "`delivered` / `delivery_reportable`; null (not reported) when no email could report it." }),
  open: fraction.nullable().meta({ description: "`unique_opened` / `open_tracked`; null (not tracked) when no email carried the open pixel." }),
  click: fraction.nullable().meta({ description: "`unique_clicked` / `click_tracked`; null (not tracked) when no email had a tracked link." }),
  bounce: fraction.meta({ description: "`bounced` / `sent`." }),
  complaint: fraction.meta({ description: "`complained` / `sent`." }),
  unsubscribe: fraction.meta({ description: "`unsubscribed` / `sent`." }),
});
reportRates.register(z.globalRegistry, { id: "ReportRates", description: "Fractions from 0 to 1, each of the emails that could show it." });
export type ReportRates = z.infer<typeof reportRates>;

const broadcastRates = reportRates
  .extend({ reply: fraction.meta({ description: "`replied` / `sent`." }) })
  .meta({ id: "BroadcastRates", description: "Fractions from 0 to 1, each of the emails that could show it." });

export const broadcastReport = z.object({
  totals: reportTotals,
  rates: broadcastRates,
  links: z
    .array(z.object({ url: z.string(), clicks: count, unique_clicks: count.meta({ description: "Emails in which a person clicked it." }) }))
    .meta({ description: "The clicked links, most clicked first (at most 100); people's clicks only." }),
  timeline: z.array(z.object({ at: dateTime.meta({ description: "Start of the bucket." }), sent: count, opened: count, clicked: count })).meta({
    description:
      "Hourly buckets from the hour the broadcast started over its first 72 hours, then 24-hour buckets (a year of them at most; " +
      "the last one holds everything later). Buckets add up to `totals.sent`, `totals.opened` and `totals.clicked`.",
  }),
  steps: z
    .array(
      z.object({
        step_id: id.nullable().meta({ description: "Null for the first email, which is not a step." }),
        position: count.meta({ description: "0 for the first email, then the sequence steps in order." }),
        totals: reportTotals,
        rates: broadcastRates,
      }),
    )
    .meta({ description: "The funnel of a sequence: the first email, then each follow-up step." }),
  inboxes: z
    .array(z.object({ inbox_id: id, name: z.string(), sent: count, replied: count, reply_rate: fraction }))
    .meta({ description: "Replies per sending inbox, most sent first; relay emails are in no row." }),
  variants: z
    .array(
      z.object({
        index: count,
        subject: z.string(),
        recipients: count,
        open_tracked: count.meta({ description: "Test emails that could show an open (as `totals.open_tracked`)." }),
        click_tracked: count.meta({ description: "Test emails that could show a click (as `totals.click_tracked`)." }),
        unique_opened: count,
        unique_clicked: count,
        open_rate: fraction.nullable().meta({ description: "`unique_opened` of `open_tracked`; null when none could show it." }),
        click_rate: fraction.nullable().meta({ description: "`unique_clicked` of `click_tracked`; null when none could show it." }),
        winner: z.boolean().meta({ description: "Chosen to go to the rest of the audience." }),
      }),
    )
    .meta({ description: "An A/B test's variants with the figures of their test share (people's opens and clicks); empty without a test." }),
});
broadcastReport.register(z.globalRegistry, { id: "BroadcastReport" });
export type BroadcastReport = z.infer<typeof broadcastReport>;

/** Who a recipient list holds: the emails with that event (opened and clicked: by a person). */
export const recipientEvent = z.enum(["sent", "delivered", "opened", "clicked", "bounced", "complained", "unsubscribed"]);
export type RecipientEvent = z.infer<typeof recipientEvent>;

const position = z.coerce.number().int().min(0).max(1000).optional().meta({ description: "Only the emails of this step (0: the first email)." });

export const recipientsQuery = z.object({ event: recipientEvent, position });

export const broadcastRecipient = z.object({
  id: id.meta({ description: "The email record's id (also the cursor of `after` and `before`)." }),
  contact_id: id.nullable(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  position: count,
  at: dateTime.meta({ description: "When it happened (for opens and clicks: the first by a person)." }),
});
export type BroadcastRecipient = z.infer<typeof broadcastRecipient>;

export const saveRecipientsInput = z.object({
  event: recipientEvent,
  position,
  name: requiredText(limits.name).optional().meta({ description: "The new segment's name; by default the broadcast's name and the event." }),
});
export type SaveRecipientsInput = z.infer<typeof saveRecipientsInput>;

const overviewRates = reportRates.omit({ unsubscribe: true });

export const organizationWarning = z.object({
  code: z
    .string()
    .meta({ description: "DOMAIN_FAILING, DOMAIN_PENDING, INBOX_FAILED, INBOX_FAILING, INBOX_PAUSED, INBOX_UNVERIFIED, COMPLAINT_RATE, BOUNCE_RATE" }),
  severity: z.enum(["warning", "critical"]),
  message: z.string(),
  resource: z.object({ type: z.enum(["domain", "inbox", "organization"]), id: id.nullable(), name: z.string() }),
});
export type OrganizationWarning = z.infer<typeof organizationWarning>;

export const organizationOverview = z.object({
  from: dateTime,
  to: dateTime,
  totals: z.object({
    sent: count,
    delivered: count,
    delivery_reportable: count.meta({ description: "As in a broadcast's report: the emails that could report delivery." }),
    opened: count,
    open_tracked: count.meta({ description: "As in a broadcast's report: the emails accepted with the open pixel." }),
    clicked: count,
    click_tracked: count.meta({ description: "As in a broadcast's report: the emails accepted with a tracked link." }),
    bounced: count,
    complained: count,
  }),
  rates: overviewRates,
  daily: z
    .array(z.object({ date: z.iso.date(), sent: count, delivered: count, opened: count, clicked: count, bounced: count, complained: count }))
    .meta({ description: "One entry per UTC day of the period, oldest first; each counts the emails sent that day and what became of them." }),
  sending: z
    .array(z.object({ id, name: z.string(), status: broadcastStatus, total_recipients: count, sent_count: count, started_at: dateTime.nullable() }))
    .meta({ description: "Broadcasts sending now (at most 20)." }),
  warnings: z.array(organizationWarning),
});
organizationOverview.register(z.globalRegistry, { id: "OrganizationOverview" });
export type OrganizationOverview = z.infer<typeof organizationOverview>;

export const broadcastAverage = z.object({
  days: count,
  broadcasts: count.meta({ description: "Broadcasts started in the period." }),
  sent: count,
  rates: reportRates,
});
export type BroadcastAverage = z.infer<typeof broadcastAverage>;
