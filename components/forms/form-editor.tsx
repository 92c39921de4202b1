"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, ExternalLink, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { BackLink } from "@/components/ui/back-link";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { PageHeader } from "@/components/ui/page-header";
import { NativeSelect } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { ApiError, apiCall, errorMessage } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useContactProperties } from "@/lib/client/resources/contact-properties";
import type { FormRecord } from "@/lib/client/resources/forms";
import { useInboxes } from "@/lib/client/resources/inboxes";
import { useSegments } from "@/lib/client/resources/segments";
import { useTopics } from "@/lib/client/resources/topics";
import { emptyForm, fieldOfPath, moved, toBody, toValues, type FormValues } from "./form-values";

const contactFields = [
  { key: "email", label: "Email" },
  { key: "first_name", label: "First name" },
  { key: "last_name", label: "Last name" },
];

type Errors = Partial<Record<keyof FormValues | "form", string>>;

// Plain state, as the segment page: react-hook-form would take the page past its JavaScript budget.
/** The form builder: fields from contact fields and typed properties, what a signup joins, and the confirmation email. */
export function FormEditor({ form }: { form?: FormRecord }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>(() => (form ? toValues(form) : emptyForm));
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const properties = useContactProperties();
  const segments = useSegments();
  const topics = useTopics();
  const inboxes = useInboxes();
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  const available = useMemo(() => [...contactFields, ...(properties.data ?? []).map((p) => ({ key: p.key, label: p.label || p.key }))], [properties.data]);
  const labelOf = (key: string) => available.find((f) => f.key === key)?.label ?? key;
  const unused = available.filter((f) => !values.fields.includes(f.key));

  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      const saved = form
        ? await apiCall("PUT /v1/forms/{id}", { params: { id: form.id }, body: toBody(values) })
        : await apiCall("POST /v1/forms", { body: toBody(values) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.forms.all() });
      toast.success(form ? "Form saved" : `Created ${saved.name}`, form ? undefined : "Share its page or paste the snippet into your site.");
      if (!form) router.push(`/forms/${saved.id}`);
    } catch (error) {
      if (!(error instanceof ApiError) || error.details.length === 0) return setErrors({ form: errorMessage(error) });
      const next: Errors = {};
      for (const detail of error.details) {
        const key = fieldOfPath(detail.path) as keyof FormValues;
        if (key in values) next[key] ??= detail.message;
        else next.form ??= detail.message;
      }
      setErrors(next);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader
        breadcrumb={<BackLink href="/forms">Forms</BackLink>}
        title={form ? form.name : "New form"}
        actions={
          <Button onClick={save} disabled={saving}>
            {form ? "Save form" : "Create form"}
          </Button>
        }
      />
      <FormError message={errors.form} className="mb-4" />
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_380px]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card>
            <CardHeader title="Form" description="What people fill in. Email is always asked." />
            <CardBody className="flex flex-col gap-5">
              <FormField label="Name" error={errors.name} required hint="Shown as the hosted page's title.">
                <Input value={values.name} onChange={(e) => set("name", e.target.value)} placeholder="Newsletter signup" />
              </FormField>
              <div className="flex flex-col gap-2">
                <p className="text-sm font-medium text-zinc-800">Fields</p>
                <ol className="divide-y divide-zinc-100 rounded-lg border border-zinc-200" aria-label="Fields of the form">
                  {values.fields.map((key, index) => (
                    <li key={key} className="flex items-center gap-2 px-3 py-2 text-sm">
                      <span className="min-w-0 flex-1 truncate text-zinc-900">{labelOf(key)}</span>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Move ${labelOf(key)} up`}
                        disabled={index === 0}
                        onClick={() => set("fields", moved(values.fields, index, -1))}
                      >
                        <ArrowUp aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Move ${labelOf(key)} down`}
                        disabled={index === values.fields.length - 1}
                        onClick={() => set("fields", moved(values.fields, index, 1))}
                      >
                        <ArrowDown aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Remove ${labelOf(key)}`}
                        disabled={key === "email"}
                        onClick={() =>
                          set(
                            "fields",
                            values.fields.filter((f) => f !== key),
                          )
                        }
                      >
                        <X aria-hidden />
                      </Button>
                    </li>
                  ))}
                </ol>
                {errors.fields && <p className="text-[13px] font-medium text-red-600">{errors.fields}</p>}
                {unused.length > 0 && (
                  <NativeSelect
                    aria-label="Add a field"
                    value=""
                    onChange={(e) => e.target.value && set("fields", [...values.fields, e.target.value])}
                    options={[{ value: "", label: "Add a field…" }, ...unused.map((f) => ({ value: f.key, label: f.label }))]}
                  />
                )}
              </div>
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Confirmation" description="With double opt-in, people are subscribed only after opening the link in this email." />
            <CardBody className="flex flex-col gap-5">
              <label className="flex items-center gap-3 text-sm text-zinc-800">
                <Switch checked={values.double_opt_in} onCheckedChange={(on) => set("double_opt_in", on)} aria-label="Double opt-in" />
                Double opt-in (recommended: it proves the address and keeps bots off your list)
              </label>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label="Send through inbox" error={errors.inbox_id}>
                  <NativeSelect
                    value={values.inbox_id}
                    onChange={(e) => set("inbox_id", e.target.value)}
                    options={[
                      { value: "", label: "No inbox (the relay)" },
                      ...(inboxes.data ?? []).map((i) => ({ value: i.id, label: `${i.name} <${i.from_email}>` })),
                    ]}
                  />
                </FormField>
                <FormField label="From address" error={errors.from_email} hint="At a verified domain; the inbox's own address when empty.">
                  <Input type="email" value={values.from_email} onChange={(e) => set("from_email", e.target.value)} placeholder="news@example.com" />
                </FormField>
              </div>
              <FormField label="From name" error={errors.from_name}>
                <Input value={values.from_name} onChange={(e) => set("from_name", e.target.value)} placeholder="Acme" />
              </FormField>
              <FormField label="Subject" error={errors.confirmation_subject} required>
                <Input value={values.confirmation_subject} onChange={(e) => set("confirmation_subject", e.target.value)} />
              </FormField>
              <FormField
                label="Email HTML"
                error={errors.confirmation_html}
                required
                hint="Must contain {{confirm_url}}. {{organization_name}} and the form's fields ({{first_name}}…) are filled in."
              >
                <Textarea
                  rows={7}
                  className="font-mono text-[13px]"
                  value={values.confirmation_html}
                  onChange={(e) => set("confirmation_html", e.target.value)}
                />
              </FormField>
            </CardBody>
          </Card>
        </div>
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader title="After signing up" />
            <CardBody className="flex flex-col gap-5">
              <FormField label="Add to segment" error={errors.segment_id} hint="A static segment.">
                <NativeSelect
                  value={values.segment_id}
                  onChange={(e) => set("segment_id", e.target.value)}
                  options={[
                    { value: "", label: "No segment" },
                    ...(segments.data ?? []).filter((s) => s.filter === null).map((s) => ({ value: s.id, label: s.name })),
                  ]}
                />
              </FormField>
              <FormField label="Subscribe to topics" error={errors.topic_ids}>
                <MultiSelect
                  value={values.topic_ids}
                  onChange={(ids) => set("topic_ids", ids)}
                  options={(topics.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                  placeholder="No topics"
                  emptyText="No topics yet."
                />
              </FormField>
              <FormField label="Redirect to" error={errors.redirect_url} hint="Your own thank-you page; ours when empty.">
                <Input type="url" value={values.redirect_url} onChange={(e) => set("redirect_url", e.target.value)} placeholder="https://example.com/thanks" />
              </FormField>
            </CardBody>
          </Card>
          {form && (
            <Card>
              <CardHeader
                title="Share"
                description={`${form.submissions_count.toLocaleString()} signed up · ${form.confirmed_count.toLocaleString()} subscribed`}
              />
              <CardBody className="flex flex-col gap-4">
                <div className="flex flex-wrap gap-2">
                  <Button variant="secondary" asChild>
                    <a href={form.hosted_url} target="_blank" rel="noreferrer">
                      <ExternalLink aria-hidden />
                      Open hosted page
                    </a>
                  </Button>
                  <CopyButton value={form.hosted_url} label="Copy link" what="link" />
                </div>
                <div>
                  <div className="mb-1.5 flex items-center justify-between">
                    <p className="text-sm font-medium text-zinc-800">Embed on your site</p>
                    <CopyButton value={form.embed_html} label="Copy HTML" what="HTML" size="sm" />
                  </div>
                  <pre className="max-h-64 overflow-auto rounded-lg bg-zinc-950 p-3 text-[12px] leading-relaxed text-zinc-100" aria-label="Embed HTML">
                    {form.embed_html}
                  </pre>
                </div>
              </CardBody>
            </Card>
          )}
        </div>
      </div>
    </>
  );
}
