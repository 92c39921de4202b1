import type { Metadata } from "next";
import { SuppressionsList } from "@/components/suppressions/suppressions-list";

export const metadata: Metadata = { title: "Suppressions" };

export default function SuppressionsPage() {
  return <SuppressionsList />;
}
