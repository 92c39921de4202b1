"use client";

import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { useFormContext, useWatch } from "react-hook-form";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { SandboxedFrame } from "@/components/ui/sandboxed-frame";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { useAllTemplates } from "@/lib/client/resources/templates";
import { previewHtml } from "@/lib/templating/preview-html";
import type { EditorValues } from "./editor-values";
import { RecordSelect } from "./record-select";

function OwnContentPreview() {
  const [html, text, previewText] = useWatch<EditorValues, ["html_content", "text_content", "preview_text"]>({ name: ["html_content", "text_content", "preview_text"] });
  if (!html.trim()) {
    return (
      <div className="flex h-72 items-center justify-center rounded-md border border-dashed border-zinc-300 bg-zinc-50 px-6 text-center text-sm text-zinc-500">
        {text.trim() ? "This email is plain text only; recipients see the Plain text tab." : "Write some HTML to see it here."}
      </div>
    );
  }
  return <SandboxedFrame html={previewHtml(html, previewText || null)} title="Preview of the email" className="h-96 rounded-md border border-zinc-200" />;
}

export function ContentCard() {
  const { register, control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const templateId = useWatch<EditorValues, "template_id">({ name: "template_id" });
  const templates = useAllTemplates();
  const chosen = templates.data?.find((template) => template.id === templateId);

  return (
    <Card>
      <CardHeader title="Content" description="Use a saved template, or write this email here." />
      <CardBody className="flex flex-col gap-4">
        <FormField
          label="Template"
          error={errors.template_id?.message}
          hint={
            templates.isSuccess && templates.data.length === 0 ? (
              <>
                No templates yet.{" "}
                <Link href="/templates/new" className="font-medium text-brand-600 hover:underline">
                  Create one
                </Link>{" "}
                to reuse a design across broadcasts.
              </>
            ) : (
              "A template's subject placeholders and HTML are used; the subject above still wins."
            )
          }
        >
          <Controlled
            control={control}
            name="template_id"
            render={({ field, aria }) => <RecordSelect {...aria} field={field} records={templates.data} loading={templates.isPending} label={(template) => template.name} none="No template: write the content below" />}
          />
        </FormField>
        {templateId ? (
          chosen ? (
            <div className="overflow-hidden rounded-lg border border-zinc-200">
              <div className="flex items-center justify-between gap-3 border-b border-zinc-100 bg-zinc-50 px-3 py-2 text-sm">
                <span className="min-w-0 truncate text-zinc-600">
                  <span className="text-zinc-400">Template subject:</span> {chosen.subject}
                </span>
                <Link href={`/templates/${chosen.id}`} className="inline-flex shrink-0 items-center gap-1 font-medium text-brand-600 hover:underline">
                  Edit template
                  <ExternalLink className="size-3.5" aria-hidden />
                </Link>
              </div>
              <SandboxedFrame html={chosen.preview_html} title={`Preview of template ${chosen.name}`} className="h-96" />
            </div>
          ) : null
        ) : (
          <Tabs defaultValue="html">
            <TabsList className="mb-3">
              <TabsTrigger value="html">HTML</TabsTrigger>
              <TabsTrigger value="text">Plain text</TabsTrigger>
              <TabsTrigger value="preview">Preview</TabsTrigger>
            </TabsList>
            <TabsContent value="html">
              <FormField label="HTML" error={errors.html_content?.message} hint="Placeholders like {{first_name|there}} are filled per recipient.">
                <Textarea rows={14} spellCheck={false} wrap="off" className="font-mono text-[13px]" placeholder="<h1>Hello {{first_name|there}}</h1>" {...register("html_content")} />
              </FormField>
            </TabsContent>
            <TabsContent value="text">
              <FormField label="Plain text" error={errors.text_content?.message} hint="For clients that do not show HTML. Leave empty to send HTML only.">
                <Textarea rows={14} placeholder={"Hello {{first_name|there}},\n\n…"} {...register("text_content")} />
              </FormField>
            </TabsContent>
            <TabsContent value="preview">
              <OwnContentPreview />
            </TabsContent>
          </Tabs>
        )}
      </CardBody>
    </Card>
  );
}
