import { apiCall } from "@/lib/client/api";
import type { CreateBroadcastInput } from "@/lib/schemas/broadcasts";
import type { CreateStepInput } from "@/lib/schemas/steps";
import type { Broadcast } from "./broadcast-types";

/** A new draft with the settings, content and follow-ups of `source`, which may be in any status. */
export async function duplicateBroadcast(source: Broadcast): Promise<Broadcast> {
  const rotate = source.inbox_ids.length > 0;
  const body: CreateBroadcastInput = {
    name: `${source.name} (copy)`.slice(0, 200),
    subject: source.subject,
    from_email: source.from_email,
    from_name: source.from_name ?? "",
    reply_to: source.reply_to,
    preview_text: source.preview_text,
    html_content: source.html_content,
    text_content: source.text_content,
    template_id: source.template_id,
    segment_id: source.segment_id,
    topic_id: source.topic_id,
    inbox_id: rotate ? null : source.inbox_id,
    inbox_ids: rotate ? source.inbox_ids : [],
    sending_speed: source.sending_speed,
    tags: source.tags,
    sequence_mode: source.sequence_mode,
    sequence_exit_conditions: source.sequence_exit_conditions,
    sending_window: source.sending_window,
    stop_on_company_reply: source.stop_on_company_reply,
    track_opens: source.track_opens,
    track_clicks: source.track_clicks,
    utm: source.utm,
    variants: source.variants,
    ab_test: source.ab_test,
  };
  const copy = await apiCall("POST /v1/broadcasts", { body });
  const steps = await apiCall("GET /v1/broadcasts/{broadcastId}/steps", { params: { broadcastId: source.id } });
  // One at a time, so each lands after the previous one.
  for (const step of steps.data) {
    const stepBody: CreateStepInput = {
      ...(step.delay_business_days ? { delay_business_days: step.delay_business_days } : { delay_minutes: step.delay_minutes }),
      subject: step.subject,
      html_content: step.html_content,
      text_content: step.text_content,
      template_id: step.template_id,
      track_opens: step.track_opens,
      track_clicks: step.track_clicks,
      utm: step.utm,
    };
    await apiCall("POST /v1/broadcasts/{broadcastId}/steps", { params: { broadcastId: copy.id }, body: stepBody });
  }
  return copy;
}
