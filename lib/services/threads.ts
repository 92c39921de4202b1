import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import type { SaveDraftInput, UpdateThreadInput } from "@/lib/schemas/threads";
import { emailSelect } from "./emails";

async function assertThread(ctx: OrgContext, threadId: string) {
  const found = await db.thread.findFirst({ where: { id: threadId, organization_id: ctx.organizationId }, select: { id: true } });
  if (!found) throw notFound("Thread");
}

export async function getThread(ctx: OrgContext, threadId: string) {
  const row = await db.thread.findFirst({
    where: { id: threadId, organization_id: ctx.organizationId },
    select: {
      id: true,
      organization_id: true,
      subject: true,
      contact_id: true,
      inbox_id: true,
      broadcast_id: true,
      automation_id: true,
      category: true,
      last_message_at: true,
      created_at: true,
      emails: { where: { organization_id: ctx.organizationId }, orderBy: [{ created_at: "asc" }, { id: "asc" }], select: emailSelect },
      draft: true,
    },
  });
  if (!row) throw notFound("Thread");
  return row;
}

/** `PATCH /v1/threads/{threadId}`: a person sets the category (`done` once dealt with); the next reply sets it again by the rules. */
export async function updateThread(ctx: OrgContext, threadId: string, input: UpdateThreadInput) {
  const { count } = await db.thread.updateMany({ where: { id: threadId, organization_id: ctx.organizationId }, data: { category: input.category } });
  if (count === 0) throw notFound("Thread");
  return getThread(ctx, threadId);
}

export async function saveDraft(ctx: OrgContext, threadId: string, input: SaveDraftInput) {
  await assertThread(ctx, threadId);
  const fields = { subject: input.subject, html_content: input.html_content, text_content: input.text_content, user_id: ctx.userId };
  return db.threadDraft.upsert({
    where: { thread_id: threadId },
    create: { ...fields, thread_id: threadId, organization_id: ctx.organizationId },
    update: fields,
  });
}

export async function deleteDraft(ctx: OrgContext, threadId: string) {
  await assertThread(ctx, threadId);
  await db.threadDraft.deleteMany({ where: { thread_id: threadId, organization_id: ctx.organizationId } });
  return { success: true };
}
