import type { Metadata } from "next";
import { FormEditorPage } from "@/components/forms/form-editor-page";

export const metadata: Metadata = { title: "New form" };

export default function NewFormPage() {
  return <FormEditorPage />;
}
