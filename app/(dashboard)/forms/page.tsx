import type { Metadata } from "next";
import { FormsList } from "@/components/forms/forms-list";

export const metadata: Metadata = { title: "Forms" };

export default function FormsPage() {
  return <FormsList />;
}
