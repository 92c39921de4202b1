import type { Metadata } from "next";
import { ImportWizard } from "@/components/contacts/import/import-wizard";

export const metadata: Metadata = { title: "Import contacts" };

export default function ImportContactsPage() {
  return <ImportWizard />;
}
