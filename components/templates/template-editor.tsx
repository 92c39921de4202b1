"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Braces, FileText, Save, Send, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { FormProvider, useForm, useWatch, type Control } from "react-hook-form";
import { ContentEditor } from "@/components/email-editor/content-editor";
import { SendTestDialog } from "@/components/email-editor/send-test-dialog";
import type { Contact } from "@/lib/client/resources/contacts";
import { firstError } from "@/components/broadcasts/first-error";
import { BackLink } from "@/components/ui/back-link";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Controlled } from "@/components/ui/controlled";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { Skeleton } from "@/components/ui/skeleton";
import { TagInput } from "@/components/ui/tag-input";
import { toast } from "@/components/ui/toast";
import { ApiError, apiCall } from "@/lib/client/api";
import { applyServerErrors } from "@/lib/client/form-errors";
import { limits } from "@/lib/schemas/common";
import { createTemplateInput } from "@/lib/schemas/templates";
import { extractVariables } from "@/lib/templating/variables";
import { TemplatePreview } from "./template-preview";
import { emptyTemplate, templateFields, toTemplateBody, toTemplateValues, type TemplateValues } from "./template-values";
import { queryKeys } from "@/lib/client/query-keys";
import { useTemplate, type Template } from "@/lib/client/resources/templates";

const resolver = bodyResolver<TemplateValues, typeof createTemplateInput>(createTemplateInput, toTemplateBody);

/** The `{{variables}}` found so far, as chips, recomputed on every keystroke. */
function VariableChips({ control }: { control: Control<TemplateValues> }) {
  const [subject, previewText, html, text] = useWatch({ control, name: ["subject", "preview_text", "html_content", "text_content"] });
  const variables = useMemo(() => extractVariables(subject, previewText, html, text), [subject, previewText, html, text]);
  return (
    <div className="flex flex-wrap items-center gap-1.5" aria-live="polite">
      <span className="inline-flex items-center gap-1 text-xs font-medium text-zinc-500">
        <Braces className="size-3.5" aria-hidden />
        Variables
      </span>
      {variables.length === 0 ? (
        <span className="text-xs text-zinc-400">
          None yet. Type {"{{first_name}}"} or {"{{first_name|there}}"} with a fallback.
        </span>
      ) : (
        variables.map((name) => (
          <span key={name} className="rounded-md bg-brand-50 px-1.5 py-0.5 font-mono text-xs text-brand-700 ring-1 ring-brand-200 ring-inset">
            {name}
          </span>
        ))
      )}
    </div>
  );
}

function TemplateForm({ template }: { template?: Template }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const initial = useMemo(() => (template ? toTemplateValues(template) : emptyTemplate), [template]);
  const form = useForm<TemplateValues>({ resolver, defaultValues: initial });
  const { errors, isSubmitting, isDirty } = form.formState;
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [testing, setTesting] = useState(false);
  const [contact, setContact] = useState<Contact | null>(null);

  const save = form.handleSubmit(async (values) => {
    try {
      const saved = template
        ? await apiCall("PUT /v1/templates/{id}", { params: { id: template.id }, body: toTemplateBody(values) })
        : await apiCall("POST /v1/templates", { body: toTemplateBody(values) });
      queryClient.setQueryData(queryKeys.templates.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.templates.all() });
      form.reset(toTemplateValues(saved));
      toast.success(template ? "Template saved" : `Created ${saved.name}`);
      if (!template) router.replace(`/templates/${saved.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === "DOMAIN_NOT_VERIFIED") {
        form.setError("from_email", { type: "server", message: `${error.message} Verify the domain in Settings, or leave this empty.` }, { shouldFocus: true });
      } else {
        applyServerErrors(error, form.setError, templateFields);
      }
    }
  });

  const remove = async () => {
    if (!template) return;
    try {
      await apiCall("DELETE /v1/templates/{id}", { params: { id: template.id } });
      void queryClient.invalidateQueries({ queryKey: queryKeys.templates.all() });
      toast.success(`Deleted ${template.name}`);
      router.push("/templates");
    } catch (error) {
      toast.error(error, "Could not delete the template");
      throw error;
    }
  };

  return (
    <FormProvider {...form}>
      <PageHeader
        breadcrumb={<BackLink href="/templates">Templates</BackLink>}
        title={template ? template.name : "New template"}
        description="A reusable email design. Broadcasts and follow-ups that use it pick up every change."
        actions={
          <>
            {template && (
              <Button variant="secondary" onClick={() => setDeleteOpen(true)}>
                <Trash2 aria-hidden />
                Delete
              </Button>
            )}
            <Button type="submit" form="template-form" loading={isSubmitting} disabled={Boolean(template) && !isDirty}>
              <Save aria-hidden />
              {template ? "Save template" : "Create template"}
            </Button>
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-2">
        <form id="template-form" onSubmit={save} className="flex min-w-0 flex-col gap-6" noValidate>
          <FormError message={errors.root?.server?.message} />
          <Card>
            <CardHeader title="Details" />
            <CardBody className="grid gap-4 sm:grid-cols-2">
              <FormField label="Name" error={errors.name?.message} hint="Only your team sees this." required>
                <Input autoFocus={!template} placeholder="Monthly newsletter" {...form.register("name")} />
              </FormField>
              <FormField label="Tags" error={firstError(errors.tags)}>
                <Controlled
                  control={form.control}
                  name="tags"
                  render={({ field, aria }) => (
                    <TagInput
                      {...aria}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      max={limits.tags}
                      maxLength={limits.tag}
                      placeholder="newsletter"
                    />
                  )}
                />
              </FormField>
              <FormField label="Subject" error={errors.subject?.message} className="sm:col-span-2" required>
                <Input placeholder="{{first_name|Hey}}, here is what's new" {...form.register("subject")} />
              </FormField>
              <FormField label="Preview text" error={errors.preview_text?.message} className="sm:col-span-2" hint="Shown after the subject in most inboxes.">
                <Input placeholder="A one-line teaser" {...form.register("preview_text")} />
              </FormField>
              <FormField label="From name" error={errors.from_name?.message}>
                <Input placeholder="Ada from Acme" {...form.register("from_name")} />
              </FormField>
              <FormField label="From address" error={errors.from_email?.message} hint="Optional; must be at a verified domain.">
                <Input type="email" placeholder="news@acme.com" {...form.register("from_email")} />
              </FormField>
              <FormField label="Reply-to" error={errors.reply_to?.message} className="sm:col-span-2">
                <Input type="email" placeholder="support@acme.com" {...form.register("reply_to")} />
              </FormField>
            </CardBody>
          </Card>
          <Card>
            <CardHeader
              title="Content"
              description="Placeholders like {{first_name|there}} are filled per recipient; the part after the bar is the fallback."
            />
            <CardBody className="flex flex-col gap-4">
              <ContentEditor
                editable
                actions={
                  template && (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setTesting(true)}
                      disabled={isDirty}
                      title={isDirty ? "Save the template first" : undefined}
                    >
                      <Send aria-hidden />
                      Send test
                    </Button>
                  )
                }
              />
              <VariableChips control={form.control} />
            </CardBody>
          </Card>
        </form>
        <div className="min-w-0 xl:sticky xl:top-20 xl:self-start">
          <TemplatePreview control={form.control} />
        </div>
      </div>
      <ConfirmDialog
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={`Delete ${template?.name ?? "template"}?`}
        description="Broadcasts and follow-ups that use it keep working with their own content but lose the link to this design. This cannot be undone."
        confirmLabel="Delete template"
        onConfirm={remove}
      />
      {template && (
        <SendTestDialog
          open={testing}
          onOpenChange={setTesting}
          test={{ route: "POST /v1/templates/{id}/test", id: template.id }}
          segmentId={null}
          contact={contact}
          onContactChange={setContact}
        />
      )}
    </FormProvider>
  );
}

/** Create (`id` omitted) or edit a template, with a live preview. */
export function TemplateEditor({ id }: { id?: string }) {
  const query = useTemplate(id);
  if (!id) return <TemplateForm />;
  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading the template">
        <Skeleton className="mb-2 h-4 w-24" />
        <Skeleton className="mb-8 h-8 w-64" />
        <div className="grid gap-6 xl:grid-cols-2">
          <Skeleton className="h-[560px] rounded-xl" />
          <Skeleton className="h-[560px] rounded-xl" />
        </div>
      </div>
    );
  }
  if (query.isError) {
    return (
      <RecordLoadError
        query={query}
        list={{ href: "/templates", label: "Templates" }}
        title="Template"
        icon={FileText}
        notFoundTitle="Template not found"
        errorTitle="Could not load the template"
      />
    );
  }
  return <TemplateForm key={query.data.id} template={query.data} />;
}
