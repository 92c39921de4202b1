import type { Metadata } from "next";
import { Suspense } from "react";
import { SegmentEditor } from "@/components/segments/segment-editor";

export const metadata: Metadata = { title: "New segment" };

export default function NewSegmentPage() {
  // The editor reads ?filter= (a filter handed over from the contacts list), which needs a Suspense boundary when prerendered.
  return (
    <Suspense>
      <SegmentEditor />
    </Suspense>
  );
}
