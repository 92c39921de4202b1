import type { Metadata } from "next";
import { SegmentsList } from "@/components/segments/segments-list";

export const metadata: Metadata = { title: "Segments" };

export default function SegmentsPage() {
  return <SegmentsList />;
}
