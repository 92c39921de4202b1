import type { Metadata } from "next";
import { Suspense } from "react";
import { SegmentEditor } from "@/components/segments/segment-editor";

export const metadata: Metadata = { title: "Segment" };

export default async function SegmentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <SegmentEditor id={id} />
    </Suspense>
  );
}
