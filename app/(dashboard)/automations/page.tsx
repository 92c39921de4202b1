import type { Metadata } from "next";
import { AutomationsList } from "@/components/automations/automations-list";

export const metadata: Metadata = { title: "Automations" };

export default function AutomationsPage() {
  return <AutomationsList />;
}
