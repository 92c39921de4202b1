import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db } from "@/lib/db";
import type { Template } from "@/lib/generated/prisma/client";
import type { CreateTemplateInput, UpdateTemplateInput } from "@/lib/schemas/templates";
import { previewHtml } from "@/lib/templating/preview-html";
import { extractVariables } from "@/lib/templating/variables";
import { contentColumns } from "@/lib/email-doc/content-columns";
import type { EmailDocument } from "@/lib/email-doc/document";
import { inboxSenderDefaults } from "./inbox-sender-defaults";
import { assertInboxesVerified, assertProvenSender } from "./sender-proof";

const serializeTemplate = (t: Template) => ({
  id: t.id,
  organization_id: t.organization_id,
  name: t.name,
  subject: t.subject,
  html_content: t.html_content,
  text_content: t.text_content,
  content_json: t.content_json as EmailDocument | null,
  variables: t.variables,
  from_email: t.from_email,
  from_name: t.from_name,
  reply_to: t.reply_to,
  preview_text: t.preview_text,
  preview_html: previewHtml(t.html_content, t.preview_text),
  inbox_id: t.inbox_id,
  tags: t.tags,
  created_by: t.created_by,
  created_at: t.created_at,
  updated_at: t.updated_at,
});

type Content = Pick<Template, "subject" | "html_content" | "text_content">;

/**
 * Checks the sender and the inbox, fills what the inbox supplies, and derives `variables` from the
 * content the template will have when the request does not list them.
 */
async function resolveChanges(ctx: OrgContext, request: UpdateTemplateInput, current: Content | null) {
  const { content_json, html_content, text_content, ...fields } = request;
  const content = await contentColumns(ctx, { content_json, html_content, text_content });
  // A template's HTML and text are never null: empty is "none".
  const input = { ...fields, ...content, html_content: content.html_content ?? undefined, text_content: content.text_content ?? undefined };
  // A template's sender is proven like any: an address at a verified domain, or a verified inbox's.
  if (input.from_email) await assertProvenSender(db, ctx, input.from_email, "from_email", { anyInbox: true });
  const defaults = input.inbox_id ? await inboxSenderDefaults(db, ctx, input.inbox_id, "inbox_id", input) : {};
  if (input.inbox_id) await assertInboxesVerified(db, ctx, [{ id: input.inbox_id, path: "inbox_id" }]);
  const touchesContent = input.subject !== undefined || input.html_content !== undefined || input.text_content !== undefined;
  const variables =
    input.variables ??
    (current === null || touchesContent
      ? extractVariables(
          input.subject ?? current?.subject ?? "",
          input.html_content ?? current?.html_content ?? "",
          input.text_content ?? current?.text_content ?? "",
        )
      : undefined);
  return { ...input, ...defaults, variables };
}

export async function createTemplate(ctx: OrgContext, input: CreateTemplateInput) {
  const data = await resolveChanges(ctx, input, null);
  const row = await db.template.create({
    data: { ...data, name: input.name, subject: input.subject, organization_id: ctx.organizationId, created_by: ctx.userId },
  });
  return serializeTemplate(row);
}

export async function listTemplates(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.template.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.template.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serializeTemplate) };
}

async function findTemplate(ctx: OrgContext, id: string) {
  const row = await db.template.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Template");
  return row;
}

export const getTemplate = async (ctx: OrgContext, id: string) => serializeTemplate(await findTemplate(ctx, id));

export async function updateTemplate(ctx: OrgContext, id: string, input: UpdateTemplateInput) {
  const current = await findTemplate(ctx, id);
  const data = await resolveChanges(ctx, input, current);
  const row = await db.template.update({ where: { id, organization_id: ctx.organizationId }, data });
  return serializeTemplate(row);
}

export async function deleteTemplate(ctx: OrgContext, id: string) {
  const { count } = await db.template.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Template");
  return { success: true };
}
