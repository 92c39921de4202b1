import type { Metadata } from "next";
import { AutomationBuilder } from "@/components/automations/automation-builder";

export const metadata: Metadata = { title: "Automation" };

export default async function AutomationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AutomationBuilder id={id} />;
}
