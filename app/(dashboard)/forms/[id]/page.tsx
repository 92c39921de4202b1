import type { Metadata } from "next";
import { FormEditorPage } from "@/components/forms/form-editor-page";

export const metadata: Metadata = { title: "Form" };

export default async function FormPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <FormEditorPage id={id} />;
}
