"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Filter as FilterIcon } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { BackLink } from "@/components/ui/back-link";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Callout } from "@/components/ui/callout";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { ApiError, apiCall, errorMessage } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { Segment } from "@/lib/client/resources/segments";
import type { Filter } from "@/lib/schemas/filter-language";
import { FilterBuilder } from "./filter-builder";
import { fromFilter, nodeForPath, toFilter, type GroupDraft } from "./filter-model";
import { FilterPreview } from "./filter-preview";
import { useBuilderOptions } from "./use-builder-options";

type FieldErrors = { name?: string; description?: string; form?: string };

/**
 * The builder's tree of a filter handed over in the URL (the contacts list's "Save as segment").
 * Only its shape is read here (the server checks the rest, and the preview shows what it refuses):
 * the filter language's zod stays out of this page.
 */
function treeFromUrl(text: string | null): GroupDraft {
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    return fromFilter(parsed && typeof parsed === "object" ? (parsed as Filter) : null);
  } catch {
    return fromFilter(null);
  }
}

// Two plain fields and the builder: react-hook-form (15 KB gzipped) would take the page over its JavaScript budget.
function Editor({ segment }: { segment?: Segment }) {
  const router = useRouter();
  const search = useSearchParams();
  const queryClient = useQueryClient();
  const [name, setName] = useState(segment?.name ?? "");
  const [description, setDescription] = useState(segment?.description ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [root, setRoot] = useState<GroupDraft>(() => (segment ? fromFilter(segment.filter) : treeFromUrl(search.get("filter"))));
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [submitted, setSubmitted] = useState(false);
  const { options } = useBuilderOptions(segment?.id);
  const translation = useMemo(() => toFilter(root, options.fields), [root, options.fields]);

  const change = (next: GroupDraft) => {
    setRoot(next);
    setProblems(new Map());
  };

  /** A refusal on the fields and rows it names; the rest above the form. */
  const showRefusal = (error: unknown) => {
    if (!(error instanceof ApiError)) return setErrors({ form: errorMessage(error) });
    const placed = new Map<string, string>();
    const next: FieldErrors = {};
    const elsewhere: string[] = [];
    for (const detail of error.details) {
      const id = detail.path.startsWith("filter") ? nodeForPath(translation.paths, detail.path) : undefined;
      if (id) placed.set(id, detail.message);
      else if (detail.path === "name" || detail.path === "description") next[detail.path] = detail.message;
      else elsewhere.push(detail.message);
    }
    if (elsewhere.length || error.details.length === 0) next.form = elsewhere.length ? elsewhere.join(". ") : error.message;
    setProblems(placed);
    setErrors(next);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!name.trim()) return setErrors({ name: "Required" });
    if (!translation.filter) return;
    const body = { name: name.trim(), description: description.trim() || null, filter: translation.filter };
    setSaving(true);
    setErrors({});
    try {
      const saved = segment ? await apiCall("PUT /v1/segments/{id}", { params: { id: segment.id }, body }) : await apiCall("POST /v1/segments", { body });
      await queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() });
      toast.success(segment ? "Segment saved" : `Created ${saved.name}`, `${saved.contacts_count.toLocaleString()} contacts match it now.`);
      router.push("/segments");
    } catch (error) {
      showRefusal(error);
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <PageHeader
        breadcrumb={<BackLink href="/segments">Segments</BackLink>}
        title={segment ? segment.name : "New dynamic segment"}
        description="Its members are the contacts matching these conditions when it is used: a broadcast's send, a sequence's exit rule, the contacts list."
        actions={
          <>
            <Button variant="secondary" asChild>
              <Link href="/segments">Cancel</Link>
            </Button>
            <Button type="submit" loading={saving}>
              {segment ? "Save segment" : "Create segment"}
            </Button>
          </>
        }
      />
      <FormError message={errors.form} />
      <div className="mt-4 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex flex-col gap-6">
          <Card>
            <CardBody className="grid gap-4 sm:grid-cols-2">
              <FormField label="Name" error={errors.name} required>
                <Input autoFocus={!segment} placeholder="Engaged Parisians" value={name} onChange={(event) => setName(event.target.value)} />
              </FormField>
              <FormField label="Description" error={errors.description} hint="Optional. Who belongs here and why.">
                <Textarea
                  rows={1}
                  placeholder="Opened an email in the last 30 days."
                  value={description}
                  onChange={(event) => setDescription(event.target.value)}
                />
              </FormField>
            </CardBody>
          </Card>
          <Card>
            <CardHeader
              title="Conditions"
              description="Typed properties compare by their type; events count what contacts did (opens and clicks by programs are left out)."
            />
            <CardBody>
              {submitted && translation.filter === null && (
                <Callout tone="warning" className="mb-3">
                  Give every condition a value, or remove it.
                </Callout>
              )}
              <FilterBuilder value={root} onChange={change} options={{ ...options, problems, incomplete: submitted ? translation.incomplete : [] }} />
            </CardBody>
          </Card>
        </div>
        <Card className="lg:sticky lg:top-6">
          <CardHeader title="Who matches" />
          <CardBody>
            <FilterPreview filter={translation.filter} incomplete={translation.incomplete.length} />
          </CardBody>
        </Card>
      </div>
    </form>
  );
}

/** Create a dynamic segment (no `id`), or edit one's name, description and filter. */
export function SegmentEditor({ id }: { id?: string }) {
  const segment = useQuery({
    queryKey: queryKeys.segments.detail(id ?? "new"),
    queryFn: () => apiCall("GET /v1/segments/{id}", { params: { id: id! } }),
    enabled: id !== undefined,
  });
  const router = useRouter();
  const isStatic = segment.data && segment.data.filter === null;
  useEffect(() => {
    if (isStatic) router.replace(`/contacts?segment_id=${segment.data!.id}`);
  }, [isStatic, router, segment.data]);
  if (!id) return <Editor />;
  if (segment.isError) {
    return (
      <RecordLoadError
        query={segment}
        list={{ href: "/segments", label: "Segments" }}
        title="Segment"
        icon={FilterIcon}
        notFoundTitle="This segment does not exist"
        errorTitle="Could not load the segment"
      />
    );
  }
  if (!segment.data || isStatic) {
    return (
      <div className="flex flex-col gap-6" aria-busy>
        <Skeleton className="h-12 w-72" />
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  return <Editor key={segment.data.id} segment={segment.data} />;
}
