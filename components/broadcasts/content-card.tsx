"use client";

import { Eye, ExternalLink, Send } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { ContentEditor } from "@/components/email-editor/content-editor";
import { Button } from "@/components/ui/button";
import { Controlled } from "@/components/ui/controlled";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { SandboxedFrame } from "@/components/ui/sandboxed-frame";
import type { Contact } from "@/lib/client/resources/contacts";
import { useAllTemplates } from "@/lib/client/resources/templates";
import type { Broadcast } from "./broadcast-types";
import type { EditorValues } from "./editor-values";
import { RecordSelect } from "./record-select";

// The preview (rendered by the server for a chosen contact) and test-send dialogs load after the
// page: they kept the broadcast page over its first-load JavaScript ceiling (npm run js-budget).
const PreviewDialog = dynamic(() => import("@/components/email-editor/preview-dialog").then((m) => m.PreviewDialog), { ssr: false });
const SendTestDialog = dynamic(() => import("@/components/email-editor/send-test-dialog").then((m) => m.SendTestDialog), { ssr: false });

/**
 * The broadcast's content: a template, or its own email in the visual editor (or as HTML), with
 * a preview as a contact of the audience and a test send. Both use the saved broadcast, so
 * `saveNow` stores pending edits first.
 */
export function ContentCard({ broadcast, editable, saveNow }: { broadcast: Broadcast; editable: boolean; saveNow: () => Promise<boolean> }) {
  const { control, formState } = useFormContext<EditorValues>();
  const { errors } = formState;
  const templateId = useWatch<EditorValues, "template_id">({ name: "template_id" });
  const templates = useAllTemplates();
  const chosen = templates.data?.find((template) => template.id === templateId);
  const [previewing, setPreviewing] = useState(false);
  const [testing, setTesting] = useState(false);
  const [contact, setContact] = useState<Contact | null>(null);
  const [opening, setOpening] = useState(false);

  const openPreview = async () => {
    setOpening(true);
    try {
      if (await saveNow()) setPreviewing(true);
    } finally {
      setOpening(false);
    }
  };
  const actions = (
    <>
      <Button variant="secondary" size="sm" onClick={() => void openPreview()} loading={opening}>
        <Eye aria-hidden />
        Preview
      </Button>
      <Button variant="secondary" size="sm" onClick={() => setTesting(true)}>
        <Send aria-hidden />
        Send test
      </Button>
    </>
  );

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
            render={({ field, aria }) => (
              <RecordSelect
                {...aria}
                field={field}
                records={templates.data}
                loading={templates.isPending}
                label={(template) => template.name}
                none="No template: write the content below"
              />
            )}
          />
        </FormField>
        {templateId ? (
          chosen ? (
            <div className="flex flex-col gap-3">
              <div className="flex justify-end gap-2">{actions}</div>
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
            </div>
          ) : null
        ) : (
          <ContentEditor editable={editable} actions={actions} />
        )}
      </CardBody>
      <PreviewDialog
        open={previewing}
        onOpenChange={setPreviewing}
        broadcastId={broadcast.id}
        from={broadcast.from_name || broadcast.from_email}
        segmentId={broadcast.segment_id}
        contact={contact}
        onContactChange={setContact}
      />
      <SendTestDialog
        open={testing}
        onOpenChange={setTesting}
        test={{ route: "POST /v1/broadcasts/{id}/test", id: broadcast.id }}
        segmentId={broadcast.segment_id}
        contact={contact}
        onContactChange={setContact}
        beforeSend={saveNow}
      />
    </Card>
  );
}
