import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import type { Broadcast, SequenceStep } from "@/lib/generated/prisma/client";
import type { RenderSource } from "@/lib/templating/render-email";

const orNull = (value: string | null | undefined) => (value ? value : null);

/** What a broadcast (or one of its steps) says before it is rendered for anyone, and the record whose document it is. */
export type BroadcastContent = {
  broadcast: Broadcast;
  step: SequenceStep | null;
  source: RenderSource;
  /** The visual editor's document the HTML was rendered from (its conditional blocks), or null. */
  doc: unknown;
};

/**
 * The content the sender would use for the broadcast's first email or for one of its steps (the
 * step's own content or its template; its subject, its template's, or in a sales sequence `Re:`
 * the broadcast's): what previews, test sends and pre-send checks look at. 404 for a broadcast or
 * step of another organization; a step of another broadcast is 400 naming `step_id`.
 */
export async function broadcastContent(ctx: OrgContext, broadcastId: string, stepId?: string | null): Promise<BroadcastContent> {
  const broadcast = await db.broadcast.findFirst({ where: { id: broadcastId, organization_id: ctx.organizationId } });
  if (!broadcast) throw notFound("Broadcast");
  const template = async (id: string | null) => (id ? db.template.findFirst({ where: { id, organization_id: ctx.organizationId } }) : null);
  if (!stepId) {
    const t = await template(broadcast.template_id);
    const source: RenderSource = t
      ? { subject: broadcast.subject, html: orNull(t.html_content), text: orNull(t.text_content), previewText: broadcast.preview_text ?? t.preview_text }
      : { subject: broadcast.subject, html: broadcast.html_content, text: broadcast.text_content, previewText: broadcast.preview_text };
    return { broadcast, step: null, source, doc: t ? t.content_json : broadcast.content_json };
  }
  const step = await db.sequenceStep.findFirst({ where: { id: stepId, broadcast_id: broadcastId, organization_id: ctx.organizationId } });
  if (!step) throw invalidField("step_id", "no such step of this broadcast");
  const own = orNull(step.html_content) || orNull(step.text_content);
  const t = own ? null : await template(step.template_id);
  const reply = broadcast.sequence_mode === "sales" ? `Re: ${broadcast.subject.replace(/^re:\s*/i, "")}` : broadcast.subject;
  const subject = step.subject || t?.subject || reply;
  const source: RenderSource = t
    ? { subject, html: orNull(t.html_content), text: orNull(t.text_content), previewText: t.preview_text }
    : { subject, html: orNull(step.html_content), text: orNull(step.text_content), previewText: null };
  return { broadcast, step, source, doc: t ? t.content_json : step.content_json };
}
