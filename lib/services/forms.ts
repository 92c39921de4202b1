import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { db, type DbClient } from "@/lib/db";
import { env } from "@/lib/env";
import type { Form } from "@/lib/generated/prisma/client";
import { embedHtml } from "@/lib/forms/embed-html";
import { formInputs } from "@/lib/forms/form-inputs";
import type { CursorParams } from "@/lib/schemas/pagination";
import { DEFAULT_CONFIRMATION_HTML, DEFAULT_CONFIRMATION_SUBJECT, FORM_CONTACT_FIELDS, type CreateFormInput, type UpdateFormInput } from "@/lib/schemas/forms";
import { cursorPage } from "./cursor-page";
import { forgetPublicForm } from "./form-submissions";
import { assertOwned } from "./owned-records";
import { assertProvenSender } from "./sender-proof";

const formUrls = (id: string) => ({ hosted_url: `${env.appUrl}/f/${id}`, submit_url: `${env.appUrl}/f/${id}/submit` });

/** The organization's typed properties with their labels, for a form's inputs. */
async function formProperties(client: DbClient, organizationId: string) {
  const rows = await client.contactProperty.findMany({ where: { organization_id: organizationId }, select: { key: true, label: true, type: true } });
  return new Map(rows.map((row) => [row.key, { label: row.label, type: row.type }]));
}

async function serializeForms(ctx: OrgContext, rows: Form[]) {
  if (rows.length === 0) return [];
  const [properties, counts] = await Promise.all([
    formProperties(db, ctx.organizationId),
    db.$queryRaw<{ form_id: string; submitted: number; confirmed: number }[]>`
      SELECT form_id, count(*)::int AS submitted, count(confirmed_at)::int AS confirmed FROM form_submissions
      WHERE organization_id = ${ctx.organizationId}::uuid AND form_id = ANY(${rows.map((r) => r.id)}::uuid[]) GROUP BY form_id`,
  ]);
  const byForm = new Map(counts.map((c) => [c.form_id, c]));
  return rows.map((f) => {
    const urls = formUrls(f.id);
    return {
      id: f.id,
      organization_id: f.organization_id,
      name: f.name,
      fields: f.fields,
      segment_id: f.segment_id,
      topic_ids: f.topic_ids,
      double_opt_in: f.double_opt_in,
      redirect_url: f.redirect_url,
      confirmation_subject: f.confirmation_subject,
      confirmation_html: f.confirmation_html,
      inbox_id: f.inbox_id,
      from_email: f.from_email,
      from_name: f.from_name,
      ...urls,
      embed_html: embedHtml(urls.submit_url, formInputs(f.fields, properties)),
      submissions_count: byForm.get(f.id)?.submitted ?? 0,
      confirmed_count: byForm.get(f.id)?.confirmed ?? 0,
      created_at: f.created_at,
      updated_at: f.updated_at,
    };
  });
}

type FormState = Omit<Form, "id" | "organization_id" | "created_at" | "updated_at">;

/**
 * Checks a form as it will be saved: its fields are contact fields or typed properties (email always
 * asked, first when not listed), its segment static and its topics and inbox the organization's,
 * and with double opt-in its confirmation has a sender the organization proved.
 */
async function checkForm(ctx: OrgContext, form: FormState): Promise<FormState> {
  const properties = await formProperties(db, ctx.organizationId);
  const fields = [...new Set(form.fields)];
  fields.forEach((key, i) => {
    if (!(FORM_CONTACT_FIELDS as readonly string[]).includes(key) && !properties.has(key))
      throw invalidField(`fields.${i}`, "is neither email, first_name, last_name nor a typed contact property");
  });
  if (!fields.includes("email")) fields.unshift("email");
  if (form.segment_id) {
    const segment = await db.segment.findFirst({ where: { id: form.segment_id, organization_id: ctx.organizationId }, select: { filter: true } });
    if (!segment) throw invalidField("segment_id", "no such segment in this organization");
    if (segment.filter !== null) throw invalidField("segment_id", "is dynamic: its members follow its filter, a form cannot add to it");
  }
  const topicIds = [...new Set(form.topic_ids.map((t) => t.toLowerCase()))];
  await assertOwned(
    db,
    ctx,
    "topic",
    topicIds.map((id, i) => ({ id, path: `topic_ids.${i}` })),
  );
  let inbox = null;
  if (form.inbox_id) {
    inbox = await db.inbox.findFirst({ where: { id: form.inbox_id, organization_id: ctx.organizationId } });
    if (!inbox) throw invalidField("inbox_id", "no such inbox in this organization");
  }
  if (form.double_opt_in) {
    const from = form.from_email ?? inbox?.from_email;
    if (!from) throw invalidField("from_email", "is required with double opt-in unless inbox_id names the inbox that sends the confirmation");
    await assertProvenSender(db, ctx, from, form.from_email ? "from_email" : "inbox_id", inbox ? { inbox } : { relay: true });
  }
  return { ...form, fields, topic_ids: topicIds };
}

export async function createForm(ctx: OrgContext, input: CreateFormInput) {
  if (!input.name) throw invalidField("name", "is required");
  const data = await checkForm(ctx, {
    name: input.name,
    fields: input.fields ?? ["email"],
    segment_id: input.segment_id ?? null,
    topic_ids: input.topic_ids ?? [],
    double_opt_in: input.double_opt_in ?? true,
    redirect_url: input.redirect_url ?? null,
    confirmation_subject: input.confirmation_subject ?? DEFAULT_CONFIRMATION_SUBJECT,
    confirmation_html: input.confirmation_html ?? DEFAULT_CONFIRMATION_HTML,
    inbox_id: input.inbox_id ?? null,
    from_email: input.from_email ?? null,
    from_name: input.from_name ?? null,
  });
  const row = await db.form.create({ data: { ...data, organization_id: ctx.organizationId } });
  return (await serializeForms(ctx, [row]))[0];
}

export async function listForms(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.form.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.form.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: await serializeForms(ctx, result.data) };
}

async function findForm(ctx: OrgContext, id: string) {
  const row = await db.form.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Form");
  return row;
}

export async function getForm(ctx: OrgContext, id: string) {
  return (await serializeForms(ctx, [await findForm(ctx, id)]))[0];
}

export async function updateForm(ctx: OrgContext, id: string, input: UpdateFormInput) {
  const row = await findForm(ctx, id);
  const current: FormState = {
    name: row.name,
    fields: row.fields,
    segment_id: row.segment_id,
    topic_ids: row.topic_ids,
    double_opt_in: row.double_opt_in,
    redirect_url: row.redirect_url,
    confirmation_subject: row.confirmation_subject,
    confirmation_html: row.confirmation_html,
    inbox_id: row.inbox_id,
    from_email: row.from_email,
    from_name: row.from_name,
  };
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<FormState>;
  const data = await checkForm(ctx, { ...current, ...defined });
  const { count } = await db.form.updateMany({ where: { id, organization_id: ctx.organizationId }, data });
  forgetPublicForm(id);
  if (count === 0) throw notFound("Form");
  return getForm(ctx, id);
}

export async function deleteForm(ctx: OrgContext, id: string) {
  const { count } = await db.form.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  forgetPublicForm(id);
  if (count === 0) throw notFound("Form");
  return { success: true };
}
