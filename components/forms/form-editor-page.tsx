"use client";

import { ClipboardList } from "lucide-react";
import { FormEditor } from "./form-editor";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { Skeleton } from "@/components/ui/skeleton";
import { useForm } from "@/lib/client/resources/forms";

/** /forms/new and /forms/{id}: the builder, with the saved form's hosted page and snippet. */
export function FormEditorPage({ id }: { id?: string }) {
  const query = useForm(id);
  if (!id) return <FormEditor />;
  if (query.isPending)
    return (
      <div role="status" aria-label="Loading the form">
        <Skeleton className="mb-8 h-8 w-72" />
        <Skeleton className="h-96 rounded-xl" />
      </div>
    );
  if (query.isError)
    return (
      <RecordLoadError
        query={query}
        list={{ href: "/forms", label: "Forms" }}
        title="Form"
        icon={ClipboardList}
        notFoundTitle="Form not found"
        errorTitle="Could not load the form"
      />
    );
  return <FormEditor key={query.data.updated_at} form={query.data} />;
}
