import type { Metadata } from "next";
import { BroadcastsList } from "@/components/broadcasts/broadcasts-list";

export const metadata: Metadata = { title: "Broadcasts" };

export default function BroadcastsPage() {
  return <BroadcastsList />;
}
