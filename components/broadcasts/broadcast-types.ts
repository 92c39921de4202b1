import type { Broadcast, BroadcastStatus } from "@/lib/client/resources/broadcasts";

export type { Broadcast, BroadcastStatus, SequenceStep } from "@/lib/client/resources/broadcasts";
/** The API refuses changes in any other status (400 BROADCAST_NOT_EDITABLE). */
export const isEditable = (status: BroadcastStatus) => status === "draft" || status === "scheduled";

/** Why the editor is read-only, in the words a marketer would use. */
export const readOnlyReason: Record<BroadcastStatus, string> = {
  draft: "",
  scheduled: "",
  sending: "This broadcast is being sent. Its settings are locked until sending finishes or you cancel it.",
  paused: "This broadcast is paused part-way through sending. Its settings stay locked: resume it to send the rest, or cancel it.",
  sent: "This broadcast has been sent, so it can no longer be changed. Duplicate it to send the same content again.",
  cancelled: "This broadcast was cancelled, so it can no longer be changed or sent. Duplicate it to send this content after all.",
  failed: "This broadcast failed to send, so it can no longer be changed. Duplicate it to try again.",
};

/** Why a paused broadcast is paused, in words. */
/** Why a paused broadcast is paused, with the figures that tripped a circuit breaker. */
export function pausedReasonText(broadcast: Pick<Broadcast, "paused_reason" | "sent_count" | "bounced_count" | "complained_count">): string {
  const attempts = broadcast.sent_count + broadcast.bounced_count;
  switch (broadcast.paused_reason) {
    case "bounce_rate":
      return `It paused itself: ${rate(broadcast.bounced_count, attempts)} of its ${attempts.toLocaleString()} emails attempted hard-bounced, past your organization's limit (Settings → Organization). Check the list's quality before resuming.`;
    case "complaint_rate":
      return `It paused itself: ${broadcast.complained_count.toLocaleString()} recipients (${rate(broadcast.complained_count, broadcast.sent_count)} of those sent) marked it as spam, past your organization's limit. Check the audience and content before resuming.`;
    default:
      return "Someone on your team paused it.";
  }
}

/** `part` as a share of `whole`, e.g. "42.5%"; empty when nothing was sent yet. */
export function rate(part: number, whole: number): string {
  if (!whole) return "";
  const value = (part / whole) * 100;
  return `${value >= 10 || value === 0 ? Math.round(value) : value.toFixed(1)}%`;
}

/**
 * The broadcast's counters as shares of those sent, or why one cannot be (as its report says):
 * mail sent through inboxes gets no delivery report, and opens or clicks of a broadcast sent with
 * them untracked are unknown. Never a 0 % nobody measured; the report's rates go email by email.
 */
export function counterShares(broadcast: Broadcast) {
  const throughInboxes = Boolean(broadcast.inbox_id) || broadcast.inbox_ids.length > 0;
  if (!broadcast.sent_count) return { delivered: "", opened: "", clicked: "" };
  return {
    delivered: throughInboxes ? "not reported" : rate(broadcast.delivered_count, broadcast.sent_count),
    opened: broadcast.track_opens ? rate(broadcast.opened_count, broadcast.sent_count) : "not tracked",
    clicked: broadcast.track_clicks ? rate(broadcast.clicked_count, broadcast.sent_count) : "not tracked",
  };
}
